// The fake Messages API moved to the package's testing kit (src/testing/scripted-model.ts), which users
// get as `durable-agent/testing`; the suite keeps importing it from here.
export * from '../../src/testing/scripted-model';
