import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCESS_TABLE, type RouteAccess } from '../../src/http/access-table.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('GET /public/api/openapi.json', () => {
  it('documents every route of the access table, with its signing', async () => {
    const response = await t.request({ path: '/openapi.json' });
    assert.equal(response.status, 200);
    assert.equal(response.body.openapi, '3.0.3');
    assert.deepEqual(Object.keys(response.body.components.securitySchemes).sort(), ['Apikey', 'Signature']);
    for (const [route, access] of Object.entries(ACCESS_TABLE as Record<string, RouteAccess>)) {
      const [method, url] = route.split(' ') as [string, string];
      const path = `/public/api${url.replace(/:(\w+)/g, '{$1}')}`;
      const operation = response.body.paths[path]?.[method.toLowerCase()];
      assert.ok(operation, `${route} is documented`);
      assert.equal(operation.security !== undefined, access.signed, `${route} security`);
      assert.equal(operation['x-permission'], access.permission, `${route} permission`);
      if (access.signed) assert.ok(operation.description.includes(access.permission), `${route} description`);
    }
  });

  it('lists path parameters in the path, as required, and never again in the query or the body', async () => {
    const response = await t.request({ path: '/openapi.json' });
    for (const route of Object.keys(ACCESS_TABLE)) {
      const [method, url] = route.split(' ') as [string, string];
      const operation = response.body.paths[`/public/api${url.replace(/:(\w+)/g, '{$1}')}`][method.toLowerCase()];
      const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      const parameters: Array<{ in: string; name: string; required?: boolean }> = operation.parameters ?? [];
      const inPath = parameters.filter((parameter) => parameter.in === 'path');
      assert.deepEqual(inPath.map((parameter) => parameter.name).sort(), [...names].sort(), route);
      assert.ok(inPath.every((parameter) => parameter.required === true), route);
      const elsewhere = [
        ...parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        ...Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
      ];
      for (const name of names) assert.ok(!elsewhere.includes(name), `${route}: ${name} also outside the path`);
    }
  });
});

describe('GET /docs', () => {
  it('serves the reference page without any network', async () => {
    const response = await fetch(`${t.baseUrl}/docs`, { redirect: 'follow' });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /swagger-ui/i);
    const bundle = await fetch(`${t.baseUrl}/docs/static/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
  });
});
