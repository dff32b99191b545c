// Jest runs the front-end unit tests (static_src/**/*.test.ts(x)) in jsdom, compiled by SWC (no type check:
// `npm run typecheck` does that).

/** @param {boolean} tsx */
const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx },
      transform: { react: { runtime: 'automatic' }, useDefineForClassFields: true }, // as tsconfig.json
      target: 'es2022',
    },
  },
];

/** @type {import('jest').Config} */
export default {
  roots: ['<rootDir>/static_src'], // never crawl .venv, node_modules or the build output
  testMatch: ['<rootDir>/static_src/**/*.test.ts?(x)'],
  testEnvironment: 'jsdom',
  transform: {
    '^.+\\.ts$': swc(false),
    '^.+\\.tsx$': swc(true),
  },
  moduleNameMapper: {
    '\\.css$': '<rootDir>/static_src/test/style-stub.ts',
  },
  globals: {
    __HLS_WORKER__: 'hls.worker-TEST.js', // esbuild's define in production (static_src/build.mjs)
  },
  clearMocks: true,
};
