import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/client/terminal-safe';

describe('terminalSafe', () => {
  it('shows an ANSI colour sequence instead of obeying it', () => {
    expect(terminalSafe('\x1b[31mred\x1b[0m')).toBe('\\x1b[31mred\\x1b[0m');
  });

  it('neutralises an OSC 8 hyperlink and an OSC 0 window title, with either terminator', () => {
    expect(terminalSafe('\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\')).toBe(
      '\\x1b]8;;https://evil.example\\x1b\\click\\x1b]8;;\\x1b\\',
    );
    expect(terminalSafe('\x1b]0;pwned\x07')).toBe('\\x1b]0;pwned\\x07');
    expect(terminalSafe('\x1bP+q544e\x1b\\')).toBe('\\x1bP+q544e\\x1b\\');
  });

  it('shows the carriage returns, backspaces and line erasures that would overwrite what is shown', () => {
    expect(terminalSafe('rm -rf /\rls -la    ')).toBe('rm -rf /\\x0dls -la    ');
    expect(terminalSafe('safe\b\b\b\bEVIL')).toBe('safe\\x08\\x08\\x08\\x08EVIL');
    expect(terminalSafe('x\x1b[2K\x1b[1A')).toBe('x\\x1b[2K\\x1b[1A');
  });

  it('neutralises bidi overrides and isolates, C1 controls (a one-character CSI) and DEL', () => {
    expect(terminalSafe('access = "user\u202e \u2066// admin\u2069\u2066"')).toBe('access = "user\\u202e \\u2066// admin\\u2069\\u2066"');
    expect(terminalSafe('\u009b31mred')).toBe('\\u009b31mred');
    expect(terminalSafe('\u009d0;title\u009c')).toBe('\\u009d0;title\\u009c');
    expect(terminalSafe('a\x7fb\x00c')).toBe('a\\u007fb\\x00c');
  });

  it('leaves plain text, emoji, accents, newlines and tabs alone, and CRLF ends a line', () => {
    const plain = 'Wrote notes.md ✅ 🚀 — café\n\tindented\nדוד';
    expect(terminalSafe(plain)).toBe(plain);
    expect(terminalSafe('one\r\ntwo')).toBe('one\ntwo');
  });

  it('changes nothing when applied twice, and keeps JSON valid with the same values', () => {
    const nasty = '\x1b[31m\u202e\u009b\x7f\r';
    expect(terminalSafe(terminalSafe(nasty))).toBe(terminalSafe(nasty));
    const json = JSON.stringify({ text: nasty });
    expect(JSON.parse(terminalSafe(json))).toEqual({ text: nasty });
    expect(terminalSafe(json)).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
  });
});
