// Moved to src/testing/prompt-cache-simulator.ts (the fake Messages API uses it); re-exported for the suite.
export * from '../../src/testing/prompt-cache-simulator';
