/**
 * Import cycles, type-only imports included: `npm run lint` fails on any. ESLint's
 * import-x/no-cycle skips `import type`, and a cycle of types still ties two modules' meanings
 * together, so this check reads what TypeScript reads before it erases types.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Two modules that import each other (directly or round a circle): move what they share into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
