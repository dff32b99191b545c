// Multichannel to stereo (ITU-R BS.775 coefficients, as Web Audio's own "speakers" down-mix for 5.1):
// L' = L + 0.7071·C + 0.7071·Ls, R' = R + 0.7071·C + 0.7071·Rs; the LFE is dropped. Channel order is
// Web Audio's: L, R, C, LFE, Ls, Rs. Fewer than six channels: mono is copied to both sides, the rest passes.
const SQRT1_2 = Math.SQRT1_2;

export function downMix(input: Float32Array[], left: Float32Array, right: Float32Array): void {
  const [l, r, c, , ls, rs] = input;
  if (!l) {
    left.fill(0);
    right.fill(0);
    return;
  }
  if (input.length === 1 || !r) {
    left.set(l);
    right.set(l);
    return;
  }
  for (let i = 0; i < left.length; i += 1) {
    const centre = c ? c[i] * SQRT1_2 : 0;
    left[i] = l[i] + centre + (ls ? ls[i] * SQRT1_2 : 0);
    right[i] = r[i] + centre + (rs ? rs[i] * SQRT1_2 : 0);
  }
}
