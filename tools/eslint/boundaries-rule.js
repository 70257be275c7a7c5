import path from 'node:path';

/**
 * Import boundaries, checked on the resolved path of every relative import (ESLint's
 * no-restricted-imports only sees the written specifier, and `../x` means different things in
 * different folders). Options: `layers`, a list of `{ from, disallow, message }` where `from` and
 * every `disallow` entry are folders relative to the repository root; `{feature}` in both stands
 * for "the feature the importing file is in", so a feature may import itself but no other.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function featureOf(file, pattern) {
  const prefix = pattern.split('{feature}')[0];
  if (!file.startsWith(prefix)) return null;
  return file.slice(prefix.length).split('/')[0] || null;
}

function inside(file, folder) {
  return file === folder || file.startsWith(`${folder}/`);
}

export default {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { layers: { type: 'array' } }, additionalProperties: false }],
    messages: { crossed: '{{message}} ({{target}})' },
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const layers = context.options[0]?.layers ?? [];
    const active = layers
      .map((layer) => {
        if (!layer.from.includes('{feature}')) return inside(file, layer.from) ? { layer, feature: null } : null;
        const feature = featureOf(file, layer.from);
        return feature ? { layer, feature } : null;
      })
      .filter(Boolean);
    if (active.length === 0) return {};

    function check(node) {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path
        .relative(ROOT, path.resolve(path.dirname(context.filename), source))
        .split(path.sep)
        .join('/');
      for (const { layer, feature } of active) {
        for (const folder of layer.disallow) {
          if (folder.includes('{feature}')) {
            const other = featureOf(target, folder);
            if (other && other !== feature) {
              context.report({ node: node.source, messageId: 'crossed', data: { message: layer.message, target } });
              return;
            }
          } else if (inside(target, folder)) {
            context.report({ node: node.source, messageId: 'crossed', data: { message: layer.message, target } });
            return;
          }
        }
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: (node) => check({ source: node.source }),
    };
  },
};
