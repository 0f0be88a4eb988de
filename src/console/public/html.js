// htm bound to preact's h: JSX-like templates with no build step. Text in templates is escaped by
// preact, so model-written strings are always rendered as text, never as HTML.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
