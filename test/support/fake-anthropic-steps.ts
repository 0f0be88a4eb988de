// Moved to src/testing/scripted-steps.ts (the testing kit); re-exported for the suite's imports.
export * from '../../src/testing/scripted-steps';
