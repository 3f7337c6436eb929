import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from '@koa/router';
import { type DocumentOptions, buildOpenApiDocument } from '../openapi/document.js';

/** The explorer's files, served from the installed swagger-ui-dist: no CDN, works offline. */
const EXPLORER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const EXPLORER_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Vigil API</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="explorer"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/explorer.js"></script>
</body>
</html>
`;

/**
 * Separate file rather than inline so the page can forbid inline scripts. `validatorUrl: null`
 * keeps the explorer from sending the document to swagger.io's validator.
 */
const EXPLORER_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#explorer',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: false,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'BaseLayout',
});
`;

const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** `/openapi.json` and the `/docs` explorer; both public (the explorer asks for a key to run requests). */
export function docsRouter(options: DocumentOptions): Router {
  const router = new Router();
  const assetsDirectory = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  let document: string | null = null;

  router.get('/openapi.json', (ctx) => {
    document ??= JSON.stringify(buildOpenApiDocument(options));
    ctx.type = 'application/json';
    ctx.body = document;
  });

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = EXPLORER_PAGE;
  });

  router.get('/docs/explorer.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = EXPLORER_SCRIPT;
  });

  router.get('/docs/assets/:file', async (ctx) => {
    const file = ctx.params['file'] ?? '';
    const type = Object.hasOwn(EXPLORER_ASSETS, file) ? EXPLORER_ASSETS[file] : undefined;
    if (type === undefined) {
      ctx.status = 404;
      ctx.body = { error: `no asset ${file}` };
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = type;
    ctx.body = await readFile(path.join(assetsDirectory, file));
  });

  return router;
}
