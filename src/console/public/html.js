// htm bound to preact's h: JSX-like templates with no build step. Text in templates is escaped by
// preact, so model-written strings are always rendered as text, never as HTML. Every string child is
// also passed through the CLI's terminal-safe rule (served as safe-text.js), so bidi overrides and
// control characters in model-written text show as visible escapes (`\u202e`) instead of reordering
// or hiding what a person reads. Attributes and input values are left as they are: those are what
// the person types, or static.
import { h } from 'preact';
import htm from 'htm';
import { safeText } from './safe-text.js';

const shown = (child) => (typeof child === 'string' ? safeText(child) : Array.isArray(child) ? child.map(shown) : child);

export const html = htm.bind((type, props, ...children) => h(type, props, ...children.map(shown)));
