// Optional peer dependencies are looked up where the package's own `require` looks. What a project
// without them sees (the `npm i` line) is tested from the packed tarball in test/package/.
import { describe, expect, it } from 'vitest';
import { isDurableAgentError } from '../../src/contract/durable-agent-error';
import { isInstalled, MissingDependencyError, packageOf, requireInstalled, requireOptional } from '../../src/runtime/optional-dependency';

const ABSENT = 'durable-agent-absent-package';
const ALSO_ABSENT = '@durable-agent/absent-too';

describe('requireInstalled', () => {
  it('names every missing package at once, with the npm i line that adds them', () => {
    const error = (() => {
      try {
        requireInstalled('The frobnicator', ['zod', ABSENT, ALSO_ABSENT]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect(isDurableAgentError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MISSING_DEPENDENCY', retryable: false, feature: 'The frobnicator', packages: [ABSENT, ALSO_ABSENT] });
    expect((error as Error).message).toBe(`The frobnicator needs ${ABSENT} and ${ALSO_ABSENT}, not installed here: npm i ${ABSENT} ${ALSO_ABSENT}`);
  });

  it('counts a package installed when it has no main entry, only subpaths (the MCP SDK)', () => {
    expect(() => require.resolve('@modelcontextprotocol/sdk')).toThrow();
    expect(isInstalled('@modelcontextprotocol/sdk')).toBe(true);
    expect(() => requireInstalled('MCP', ['@modelcontextprotocol/sdk', 'hono'])).not.toThrow();
  });
});

describe('requireOptional', () => {
  it('loads an installed package or subpath', () => {
    expect(requireOptional<{ Client: unknown }>('@modelcontextprotocol/sdk/client/index.js', 'MCP').Client).toBeTypeOf('function');
  });

  it('names the package, not the subpath, when it is not installed', () => {
    expect(() => requireOptional(`${ALSO_ABSENT}/lib/deep.js`, 'Deep things')).toThrow(`Deep things needs ${ALSO_ABSENT}, not installed here: npm i ${ALSO_ABSENT}`);
    expect(packageOf('@scope/name/lib/x.js')).toBe('@scope/name');
    expect(packageOf('name/sub')).toBe('name');
  });

  it('lets the error of an installed package that fails to load through as it is', () => {
    // The package is there; its subpath is not: that is not a missing dependency to install.
    expect(() => requireOptional('zod/no-such-subpath', 'Zod')).toThrow(expect.objectContaining({ code: expect.stringMatching(/ERR_PACKAGE_PATH_NOT_EXPORTED|MODULE_NOT_FOUND/) }));
    expect(() => requireOptional('zod/no-such-subpath', 'Zod')).not.toThrow(MissingDependencyError);
  });
});
