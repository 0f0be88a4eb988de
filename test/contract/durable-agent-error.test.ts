import { describe, expect, it } from 'vitest';
import * as root from '../../src/index';
import * as client from '../../src/client/index';
import * as testing from '../../src/testing/index';
import * as contractErrors from '../../src/contract/errors';
import * as clientErrors from '../../src/client/errors';
import { DurableAgentError, isDurableAgentError } from '../../src/contract/durable-agent-error';

/** Every class among a module's exports whose instances are Errors. */
function errorClasses(module: Record<string, unknown>): [string, new (...args: never[]) => Error][] {
  return Object.entries(module).filter((entry): entry is [string, new (...args: never[]) => Error] => {
    const value = entry[1];
    return typeof value === 'function' && value.prototype instanceof Error;
  });
}

// DevServerStartError and WorkerSettingsError take other arguments first; each is built the way its code builds it.
const instanceOf = (Class: new (...args: never[]) => Error): Error => {
  const Any = Class as unknown as new (...args: unknown[]) => Error;
  if (Class.name === 'WorkerSettingsError' || Class.name === 'ClientSettingsError') return new Any(['a problem']);
  if (Class.name === 'ModelProviderError') return new Any('anthropic', 'a problem');
  return new Any('a problem');
};

describe('DurableAgentError', () => {
  const entries = [
    ['durable-agent', root],
    ['durable-agent/client', client],
    ['durable-agent/testing', testing],
    ['src/contract/errors.ts', contractErrors],
    ['src/client/errors.ts', clientErrors],
  ] as const;

  for (const [entry, module] of entries) {
    it(`is the base of every error class ${entry} exports, with a stable code and a retryable flag`, () => {
      const classes = errorClasses(module as Record<string, unknown>).filter(([name]) => name !== 'DurableAgentError');
      expect(classes.length).toBeGreaterThan(0);
      for (const [name, Class] of classes) {
        const error = instanceOf(Class);
        expect(error, name).toBeInstanceOf(DurableAgentError);
        expect(isDurableAgentError(error), name).toBe(true);
        const { code, retryable } = error as DurableAgentError;
        expect(code, name).toMatch(/^[A-Z][A-Z_]+$/);
        expect(typeof retryable, name).toBe('boolean');
        expect(error.name, name).toBe(name);
      }
    });
  }

  it('gives every error class its own code', () => {
    const codes = new Map<string, string>();
    for (const [, module] of entries) {
      for (const [name, Class] of errorClasses(module as Record<string, unknown>)) {
        if (name === 'DurableAgentError') continue;
        const { code } = instanceOf(Class) as DurableAgentError;
        if (codes.has(code)) expect(codes.get(code), `code ${code}`).toBe(name);
        codes.set(code, name);
      }
    }
  });

  it('carries a cause, and recognises an error of another copy of the package by its shape', () => {
    const cause = new Error('underneath');
    const error = new clientErrors.DecisionRefusedError('refused', { cause, failureType: 'DecisionRefused' });
    expect(error.cause).toBe(cause);
    expect(error.failureType).toBe('DecisionRefused');
    expect(error.retryable).toBe(false);
    const foreign = Object.assign(new Error('x'), { code: 'DECISION_REFUSED', retryable: false });
    expect(isDurableAgentError(foreign)).toBe(true);
    expect(isDurableAgentError(new Error('plain'))).toBe(false);
  });

  it('keeps RunWaitTimeoutError catches working for a run that ended while a caller waited', () => {
    const ended = new clientErrors.RunEndedWhileWaitingError('ended', { cause: new Error('boom') });
    expect(ended).toBeInstanceOf(clientErrors.RunWaitTimeoutError);
    expect(ended.retryable).toBe(false);
    expect(ended.code).toBe('RUN_ENDED_WHILE_WAITING');
  });
});
