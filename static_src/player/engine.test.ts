import { HLS_CONFIG } from '../core/defaults';
import { bufferBound } from './engine';

describe('bufferBound', () => {
  it("bounds both of hls.js's forward-buffer settings, so its byte budget cannot reach past the bound", () => {
    expect(bufferBound(8)).toEqual({ maxBufferLength: 8, maxMaxBufferLength: 8 });
  });

  it('never raises the policy, and null is the policy itself', () => {
    expect(bufferBound(45)).toEqual({ maxBufferLength: HLS_CONFIG.maxBufferLength, maxMaxBufferLength: 45 });
    expect(bufferBound(600)).toEqual({ maxBufferLength: 30, maxMaxBufferLength: 60 });
    expect(bufferBound(null)).toEqual({ maxBufferLength: 30, maxMaxBufferLength: 60 });
  });
});
