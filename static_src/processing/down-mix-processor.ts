// The audio worklet served at /processing/down-mix-processor.js (spec §7): down-mixes multichannel audio to
// stereo before the gain, so a 5.1 track keeps its dialogue (centre channel) on a phone's two speakers.
import { downMix } from './downmix';

declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, ctor: new () => AudioWorkletProcessor): void;

class DownMixProcessor extends AudioWorkletProcessor {
  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0];
    const [left, right] = outputs[0];
    if (input && left && right) downMix(input, left, right);
    return true; // keep running while the media element feeds the graph
  }
}

void sampleRate;
registerProcessor('down-mix-processor', DownMixProcessor);
