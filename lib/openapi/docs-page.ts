/**
 * The readable docs page (`GET /api/docs`): one self-contained HTML page whose small inline script
 * fetches `openapi.json` (same origin, relative to the page) and renders the endpoints grouped by tag,
 * with parameters, bodies, responses and the schemas. Nothing is loaded from elsewhere (the page must
 * work offline and behind a strict CSP).
 *
 * The CSP allows exactly this page: its one script and one style by hash, `fetch` to its own origin,
 * nothing else. The script builds the DOM with createElement/textContent only, so Trusted Types can be
 * required with no policy at all (`trusted-types 'none'`).
 */
import { createHash } from 'node:crypto';

const STYLE = `
:root { color-scheme: light dark; --line: #8884; --muted: #888; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 1.5rem 4rem; }
code { font: 13px ui-monospace, monospace; }
header input { font: inherit; width: 100%; max-width: 28rem; padding: .35rem .5rem; margin: .5rem 0; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: .2rem; margin-top: 2.5rem; }
.op { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; margin: 1rem 0; }
.op h3 { margin: .25rem 0; font-size: 1rem; display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
.method { font: bold 12px ui-monospace, monospace; padding: .1rem .45rem; border-radius: 4px; color: #fff; min-width: 3.5rem; text-align: center; }
.GET { background: #1f6feb; } .POST { background: #1a7f37; } .PUT { background: #9a6700; } .DELETE { background: #cf222e; }
.summary { color: var(--muted); }
h4 { margin: .8rem 0 .3rem; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .25rem .5rem .25rem 0; }
th { font-weight: 600; }
.req { color: #cf222e; font-size: 12px; }
.note { color: var(--muted); font-size: 13px; }
.schema { margin: 1.5rem 0; }
.schema h3 { font-size: 1.05rem; }
td:nth-child(1) { white-space: nowrap; }
`;

const SCRIPT = `
(function () {
  'use strict';
  var doc = null;
  var PREFIX = '#/components/schemas/';

  function el(tag, cls, children) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }
  function link(href, label) { var a = el('a', null, [label]); a.href = href; return a; }

  // Descriptions use \`code\` and **bold**; render those two, everything else as text.
  function rich(s) {
    var out = el('span');
    String(s || '').split(/(\\*\\*[^*]+\\*\\*|\`[^\`]+\`)/).forEach(function (part) {
      if (/^\\*\\*.+\\*\\*$/.test(part)) out.appendChild(el('strong', null, [part.slice(2, -2)]));
      else if (/^\`.+\`$/.test(part)) out.appendChild(el('code', null, [part.slice(1, -1)]));
      else if (part) out.appendChild(document.createTextNode(part));
    });
    return out;
  }

  function resolve(s) { return s && s.$ref ? doc.components.schemas[s.$ref.slice(PREFIX.length)] || {} : s || {}; }
  function isInlineObject(s) { return s && !s.$ref && s.type === 'object' && s.properties; }

  // A short type label: $refs become links to the schema section.
  function typeLabel(s) {
    var span = el('span');
    function add(x) { span.appendChild(typeof x === 'string' ? document.createTextNode(x) : x); }
    function walk(t) {
      if (!t || Object.keys(t).filter(function (k) { return k !== 'description'; }).length === 0) return add('any');
      if (t.$ref) { var name = t.$ref.slice(PREFIX.length); return add(link('#schema-' + name, name)); }
      var alts = t.anyOf || t.oneOf;
      if (alts) return alts.forEach(function (a, i) { if (i) add(' | '); walk(a); });
      if (t.enum) return add(t.enum.map(function (v) { return JSON.stringify(v); }).join(' | '));
      if (t.const !== undefined) return add(JSON.stringify(t.const));
      if (Array.isArray(t.type)) return add(t.type.join(' | '));
      if (t.type === 'array') { walk(t.items); return add('[]'); }
      if (t.type === 'object' && !t.properties && t.additionalProperties && typeof t.additionalProperties === 'object') {
        add('map of '); return walk(t.additionalProperties);
      }
      add(t.type || 'any');
    }
    walk(s);
    return span;
  }

  function constraints(s) {
    var n = [];
    if (s.pattern) n.push('pattern ' + s.pattern);
    if (s.minLength !== undefined || s.maxLength !== undefined) n.push('length ' + (s.minLength || 0) + '..' + (s.maxLength === undefined ? '' : s.maxLength));
    if (s.minimum !== undefined) n.push('min ' + s.minimum);
    if (s.exclusiveMinimum !== undefined) n.push('> ' + s.exclusiveMinimum);
    if (s.maximum !== undefined) n.push('max ' + s.maximum);
    if (s.minItems !== undefined || s.maxItems !== undefined) n.push('items ' + (s.minItems || 0) + '..' + (s.maxItems === undefined ? '' : s.maxItems));
    if (s.default !== undefined) n.push('default ' + JSON.stringify(s.default));
    return n.join(', ');
  }

  // Properties as rows; inline nested objects (not $refs) as dotted rows below their parent.
  function propertyRows(schema, prefix, depth, rows) {
    var required = schema.required || [];
    Object.keys(schema.properties || {}).forEach(function (name) {
      var p = schema.properties[name];
      var notes = el('span', 'note', [constraints(p)]);
      var cells = [
        el('td', null, [el('code', null, [prefix + name])]),
        el('td', null, [typeLabel(p)]),
        el('td', null, required.indexOf(name) >= 0 ? [el('span', 'req', ['required'])] : []),
        el('td', null, [p.description ? rich(p.description) : null, p.description && notes.textContent ? ' ' : null, notes]),
      ];
      rows.push(el('tr', null, cells));
      // Expand an inline object (also one that may be null, or the items of an array) below its row.
      var alts = (p.anyOf || p.oneOf || [p]).filter(function (a) { return a.type !== 'null'; });
      var only = alts.length === 1 ? alts[0] : null;
      var inner = only && only.type === 'array' ? only.items : only;
      if (depth < 4 && isInlineObject(inner)) propertyRows(inner, prefix + name + (only.type === 'array' ? '[].' : '.'), depth + 1, rows);
    });
    return rows;
  }

  function schemaView(s) {
    var target = resolve(s);
    var wrap = el('div');
    if (s && s.$ref) wrap.appendChild(el('p', null, ['Schema: ', typeLabel(s)]));
    if (target.description) wrap.appendChild(el('p', 'note', [rich(target.description)]));
    if (target.properties) {
      var head = el('tr', null, ['Field', 'Type', '', 'Notes'].map(function (h) { return el('th', null, [h]); }));
      wrap.appendChild(el('table', null, [el('thead', null, [head]), el('tbody', null, propertyRows(target, '', 0, []))]));
    } else {
      wrap.appendChild(el('p', null, ['Type: ', typeLabel(target)]));
    }
    return wrap;
  }

  function parametersView(params) {
    var rows = params.map(function (p) {
      return el('tr', null, [
        el('td', null, [el('code', null, [p.name])]),
        el('td', null, [p.in]),
        el('td', null, [typeLabel(p.schema)]),
        el('td', null, p.required ? [el('span', 'req', ['required'])] : []),
        el('td', null, [p.description ? rich(p.description) : null, ' ', el('span', 'note', [constraints(p.schema || {})])]),
      ]);
    });
    var head = el('tr', null, ['Name', 'In', 'Type', '', 'Description'].map(function (h) { return el('th', null, [h]); }));
    return el('table', null, [el('thead', null, [head]), el('tbody', null, rows)]);
  }

  function responsesView(responses) {
    var rows = Object.keys(responses).map(function (status) {
      var r = responses[status];
      var name = r.$ref ? r.$ref.split('/').pop() : null;
      // A reference may carry a description of its own (what the status means on this route).
      var own = r.$ref ? r.description : null;
      if (name) r = doc.components.responses[name] || {};
      if (own) r = Object.assign({}, r, { description: own });
      var content = r.content || {};
      var types = Object.keys(content).map(function (type) {
        var s = content[type].schema;
        return el('span', null, [el('code', null, [type]), s ? ': ' : null, s ? typeLabel(s) : null]);
      });
      return el('tr', null, [
        el('td', null, [el('strong', null, [status])]),
        el('td', null, [name ? el('code', null, [name]) : null, name ? ' ' : null, rich(r.description)]),
        el('td', null, types),
      ]);
    });
    var head = el('tr', null, ['Status', 'Meaning', 'Body'].map(function (h) { return el('th', null, [h]); }));
    return el('table', null, [el('thead', null, [head]), el('tbody', null, rows)]);
  }

  function operationView(method, path, op) {
    var route = method.toUpperCase() + ' ' + path;
    var h = el('h3', null, [el('span', 'method ' + method.toUpperCase(), [method.toUpperCase()]), ' ', el('code', 'path', [path]), ' ', el('span', 'summary', [op.summary || ''])]);
    var section = el('section', 'op', [h]);
    section.id = 'op-' + op.operationId;
    section.setAttribute('data-route', route);
    String(op.description || '').split(/\\n\\n+/).forEach(function (para) { if (para) section.appendChild(el('p', null, [rich(para)])); });
    var auth = (op.security || []).map(function (alt) { return Object.keys(alt).join(' + ') || 'none'; });
    if (auth.length) section.appendChild(el('p', 'note', ['Credentials: ' + auth.join(' or ')]));
    if (op.parameters && op.parameters.length) {
      section.appendChild(el('h4', null, ['Parameters']));
      section.appendChild(parametersView(op.parameters));
    }
    if (op.requestBody) {
      var json = op.requestBody.content['application/json'];
      section.appendChild(el('h4', null, ['Body (application/json' + (op.requestBody.required ? ', required' : '') + ')']));
      section.appendChild(schemaView(json && json.schema));
    }
    section.appendChild(el('h4', null, ['Responses']));
    section.appendChild(responsesView(op.responses || {}));
    return section;
  }

  function render() {
    document.title = doc.info.title + ' ' + doc.info.version;
    document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
    document.getElementById('intro').replaceChildren(rich(doc.info.description));
    var byTag = {};
    (doc.tags || []).forEach(function (t) { byTag[t.name] = []; });
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (method) {
        var op = doc.paths[path][method];
        var tag = (op.tags && op.tags[0]) || 'Other';
        (byTag[tag] = byTag[tag] || []).push(operationView(method, path, op));
      });
    });
    var main = document.getElementById('ops');
    var toc = el('ul');
    main.replaceChildren();
    Object.keys(byTag).forEach(function (tag) {
      if (!byTag[tag].length) return;
      var info = (doc.tags || []).filter(function (t) { return t.name === tag; })[0];
      var group = el('section', 'tag', [el('h2', null, [tag]), info ? el('p', 'note', [rich(info.description)]) : null]);
      group.id = 'tag-' + tag;
      byTag[tag].forEach(function (op) { group.appendChild(op); });
      main.appendChild(group);
      toc.appendChild(el('li', null, [link('#tag-' + tag, tag + ' (' + byTag[tag].length + ')')]));
    });
    toc.appendChild(el('li', null, [link('#schemas', 'Schemas')]));
    document.getElementById('toc').replaceChildren(toc);

    var schemas = document.getElementById('schemas');
    schemas.replaceChildren(el('h2', null, ['Schemas']));
    Object.keys(doc.components.schemas).forEach(function (name) {
      var s = el('section', 'schema', [el('h3', null, [el('code', null, [name])]), schemaView(doc.components.schemas[name])]);
      s.id = 'schema-' + name;
      schemas.appendChild(s);
    });
    document.body.setAttribute('data-state', 'ready');
  }

  function filter(q) {
    q = q.trim().toLowerCase();
    Array.prototype.forEach.call(document.querySelectorAll('section.tag'), function (group) {
      var shown = 0;
      Array.prototype.forEach.call(group.querySelectorAll('section.op'), function (op) {
        op.hidden = q !== '' && op.textContent.toLowerCase().indexOf(q) < 0;
        if (!op.hidden) shown++;
      });
      group.hidden = shown === 0;
    });
  }

  document.getElementById('filter').addEventListener('input', function (e) { filter(e.target.value); });
  fetch('openapi.json', { headers: { accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    })
    .then(function (json) { doc = json; render(); })
    .catch(function (err) {
      document.getElementById('ops').replaceChildren(el('p', null, ['Could not load openapi.json: ' + err.message]));
      document.body.setAttribute('data-state', 'error');
    });
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Participation API</title>
<style>${STYLE}</style>
</head>
<body data-state="loading">
<header>
<h1 id="title">Participation API</h1>
<p id="intro"></p>
<p><a href="openapi.json">openapi.json</a> (OpenAPI 3.1)</p>
<input id="filter" type="search" placeholder="Filter endpoints, e.g. vote or DELETE" aria-label="Filter endpoints">
</header>
<nav id="toc" aria-label="Sections"></nav>
<main id="ops"><p>Loading the API description…</p></main>
<section id="schemas"></section>
<noscript><p>This page renders <a href="openapi.json">openapi.json</a> with a small script; without scripts, read the JSON.</p></noscript>
<script>${SCRIPT}</script>
</body>
</html>
`;

/**
 * Directives for @middy/http-security-headers, which merges them over its defaults. `false` drops a
 * default the page must not have (`sandbox` would stop the script; the others need an endpoint or
 * HTTPS that a local run lacks); the middleware skips falsy directives, its types only admit strings.
 */
const off = false as unknown as string;
export const DOCS_CSP: Record<string, string> = {
  'default-src': "'none'",
  'script-src': sha256(SCRIPT),
  'style-src': sha256(STYLE),
  'connect-src': "'self'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
  'require-trusted-types-for': "'script'",
  'trusted-types': "'none'",
  sandbox: off,
  'report-to': off,
  'upgrade-insecure-requests': off,
};

/** Exposed for the unit test that checks the script compiles. */
export const DOCS_SCRIPT = SCRIPT;
