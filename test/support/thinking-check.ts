// The thinking check moved to the package's testing kit with the scripted model it guards.
export * from '../../src/testing/thinking-check';
