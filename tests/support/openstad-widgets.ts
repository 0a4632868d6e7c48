/**
 * OpenStad's widgets built from their source (tests/support/openstad-widgets/src, openstad-components
 * v1.0.4) as its webpack config built them: the JSX of its Babel preset (React.createElement on the
 * global `React`), React and ReactDOM as page globals, the widgets on `window.OpenStadComponents`.
 * One bundle holds React 16 (the version they were written for), the ideas overview, the idea details
 * with its like buttons, and the widgets' own libs (its login helpers: `getUser` reads
 * `/oauth/site/:id/me` as a CMS page does). Stylesheets, the idea form's image upload and the
 * polyfills are stubbed (tests/support/openstad-widgets/README.md).
 */
import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./openstad-widgets', import.meta.url));

const ENTRY = `
import React from 'react';
import ReactDOM from 'react-dom';
import libs from './src/libs/index.jsx';
import * as ideasOverview from './src/ideas-overview/index.jsx';
import * as ideaDetails from './src/idea-details/index.jsx';
window.React = React;
window.ReactDOM = ReactDOM;
window.OpenStadComponents = { libs, 'ideas-overview': ideasOverview, 'idea-details': ideaDetails };
`;

/** What no widget path of these tests reaches: an empty module (with the names the image upload imports). */
const STUBBED = /^(?:whatwg-fetch|core-js\/.*|filepond.*|react-filepond)$|\.less$/;
const stubs: Plugin = {
  name: 'openstad-widget-stubs',
  setup(b) {
    b.onResolve({ filter: STUBBED }, (args) => ({ path: args.path, namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export const FilePond = () => null; export const registerPlugin = () => {}; export default {};', loader: 'js' }));
  },
};

/** The bundle's JavaScript, for a page to load with a `<script>`. */
export async function buildOpenStadWidgets(): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: SOURCE, loader: 'js', sourcefile: 'openstad-widgets-entry.js' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    loader: { '.js': 'jsx', '.jsx': 'jsx' },
    jsx: 'transform',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [stubs],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
