// The layout by width (spec §2): mobile at and below the small breakpoint, following the container's width.
import { useEffect, useState } from 'react';
import { DEFAULTS } from '../core/defaults';

type Layout = 'desktop' | 'mobile';

function layoutFor(width: number): Layout {
  return width > 0 && width <= DEFAULTS.smallBreakpointPx ? 'mobile' : 'desktop';
}

export function useLayout(container: HTMLElement): Layout {
  const [layout, setLayout] = useState<Layout>(() => layoutFor(container.clientWidth));
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setLayout(layoutFor(container.clientWidth)));
    observer.observe(container);
    return () => observer.disconnect();
  }, [container]);
  return layout;
}
