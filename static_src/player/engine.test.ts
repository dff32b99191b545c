import { HLS_CONFIG } from '../core/defaults';
import { bufferBound, startWorker } from './engine';

describe('bufferBound', () => {
  it("bounds both of hls.js's forward-buffer settings, so its byte budget cannot reach past the bound", () => {
    expect(bufferBound(8)).toEqual({ maxBufferLength: 8, maxMaxBufferLength: 8 });
  });

  it('never raises the policy, and null is the policy itself', () => {
    const policy = { maxBufferLength: HLS_CONFIG.maxBufferLength, maxMaxBufferLength: HLS_CONFIG.maxMaxBufferLength };
    expect(bufferBound(600)).toEqual(policy);
    expect(bufferBound(null)).toEqual(policy);
    expect(policy).toEqual({ maxBufferLength: 30, maxMaxBufferLength: 30 });
  });
});

describe('startWorker', () => {
  const PATH = '/assets/hls.worker-TEST.js';
  const realWorker = globalThis.Worker;
  beforeEach(() => {
    globalThis.Worker = class {} as unknown as typeof Worker; // jsdom has none
  });
  afterEach(() => {
    globalThis.Worker = realWorker;
  });

  it("starts the worker in hls.js's store by its path, and releases this reference once", () => {
    const store = { loadWorker: jest.fn(), removeWorkerFromStore: jest.fn() };
    const release = startWorker(store, PATH);
    expect(store.loadWorker.mock.calls).toEqual([[PATH]]);
    expect(store.removeWorkerFromStore).not.toHaveBeenCalled();
    release?.();
    release?.();
    expect(store.removeWorkerFromStore.mock.calls).toEqual([[PATH]]);
  });

  it('starts nothing without the store, without a worker path or without Worker', () => {
    const store = { loadWorker: jest.fn(), removeWorkerFromStore: jest.fn() };
    expect(startWorker({}, PATH)).toBeNull(); // a published hls.js build: no store exported
    expect(startWorker(store, null)).toBeNull(); // enableWorker off
    globalThis.Worker = undefined as unknown as typeof Worker;
    expect(startWorker(store, PATH)).toBeNull();
    expect(store.loadWorker).not.toHaveBeenCalled();
  });

  it('leaves a worker that cannot be made to hls.js, with nothing to release', () => {
    const store = {
      loadWorker: jest.fn(() => {
        throw new DOMException('refused by the Content-Security-Policy', 'SecurityError');
      }),
      removeWorkerFromStore: jest.fn(),
    };
    expect(startWorker(store, PATH)).toBeNull();
    expect(store.removeWorkerFromStore).not.toHaveBeenCalled();
  });
});
