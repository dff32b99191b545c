// Audio gain through Web Audio (spec §9: 1–4, off by default). The graph is built only on the first gain above 1,
// because a media element routed into an AudioContext stays there for good. Multichannel tracks pass through the
// down-mix worklet (/processing/down-mix-processor.js) first.
export const DOWN_MIX_PATH = '/processing/down-mix-processor.js';

interface Graph {
  context: AudioContext;
  source: MediaElementAudioSourceNode;
  gain: GainNode;
  downMix: AudioWorkletNode | null;
}

export class AudioBoost {
  private graph: Graph | null = null;
  private building: Promise<Graph | null> | null = null;

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly baseUrl: string,
  ) {}

  /** Sets the gain; `channels` is the current track's channel count (more than 2 brings in the down-mix). */
  async setGain(value: number, channels = 2): Promise<boolean> {
    if (value <= 1 && !this.graph) return true; // off, and never switched on: no graph at all
    const graph = await this.ensure(channels);
    if (!graph) return false;
    graph.gain.gain.value = value;
    if (graph.context.state === 'suspended') await graph.context.resume().catch(() => undefined);
    return true;
  }

  dispose(): void {
    const graph = this.graph;
    this.graph = null;
    this.building = null;
    if (graph) void graph.context.close().catch(() => undefined);
  }

  private ensure(channels: number): Promise<Graph | null> {
    if (this.graph) return Promise.resolve(this.graph);
    this.building ??= this.build(channels).then((graph) => (this.graph = graph));
    return this.building;
  }

  private async build(channels: number): Promise<Graph | null> {
    const Context = window.AudioContext ?? (window as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Context) return null;
    try {
      const context = new Context();
      const source = context.createMediaElementSource(this.video);
      const gain = context.createGain();
      let downMix: AudioWorkletNode | null = null;
      if (channels > 2 && context.audioWorklet) {
        await context.audioWorklet.addModule(this.baseUrl.replace(/\/$/, '') + DOWN_MIX_PATH);
        downMix = new AudioWorkletNode(context, 'down-mix-processor', {
          channelCount: channels,
          channelCountMode: 'explicit',
          channelInterpretation: 'discrete',
          outputChannelCount: [2],
        });
        source.connect(downMix).connect(gain);
      } else {
        source.connect(gain);
      }
      gain.connect(context.destination);
      return { context, source, gain, downMix };
    } catch (error) {
      console.warn('player: audio gain is not available', error);
      return null;
    }
  }
}
