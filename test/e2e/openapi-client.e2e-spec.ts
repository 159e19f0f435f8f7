import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../child-process';
import { TestApp } from '../fixtures';

const run = promisify(execFile);

/**
 * The contract with integrators: a client generated from `/v1/openapi.json` with openapi-typescript
 * and openapi-fetch compiles under `tsc --strict` and runs a real flow against the API (sign up,
 * create a key, create a lead with `companyName`, change it, list, read a typed error).
 */
const FLOW = `
import createClient from 'openapi-fetch';
import type { paths, components } from './schema';

type ErrorCode = components['schemas']['ErrorView']['code'];

async function main(baseUrl: string, email: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  const signUp = await client.POST('/auth/sign-up', {
    body: { email, password: 'correct horse battery', firstName: 'Ada', lastName: 'Client', organizationName: 'Typed Agency' },
  });
  if (!signUp.data) throw new Error('sign-up failed: ' + JSON.stringify(signUp.error));
  const session: string = signUp.data.token;

  const key = await client.POST('/api-keys', {
    headers: { Authorization: 'Bearer ' + session },
    body: { name: 'generated client', scopes: ['crm:read', 'crm:write'] },
  });
  if (!key.data) throw new Error('key failed: ' + JSON.stringify(key.error));
  const api = createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer ' + key.data.key } });

  const created = await api.POST('/v1/leads', {
    params: { header: { 'Idempotency-Key': 'generated-client-1' } },
    body: {
      firstName: 'Grace', lastName: 'Lead', email: 'grace@example.com', phoneNumber: '+441234567890',
      crmStatus: 'lead', companyName: 'Acme', language: null,
    },
  });
  if (!created.data) throw new Error('create failed: ' + JSON.stringify(created.error));
  const leadId: number = created.data.lead.id;
  const company: string | null = created.data.lead.companyName;

  const patched = await api.PATCH('/v1/leads/{leadId}', {
    params: { path: { leadId } },
    body: { firstName: 'Gracie', companyName: null },
  });
  if (!patched.data) throw new Error('patch failed: ' + JSON.stringify(patched.error));

  const list = await api.GET('/v1/leads', { params: { query: { limit: 10 } } });
  if (!list.data) throw new Error('list failed: ' + JSON.stringify(list.error));
  const names: string[] = list.data.data.map((lead) => lead.firstName);

  const missing = await api.GET('/v1/leads/{leadId}', { params: { path: { leadId: leadId + 1_000_000 } } });
  if (!missing.error) throw new Error('expected an error');
  const code: ErrorCode = missing.error.error.code;

  console.log(JSON.stringify({
    leadId, company, patchedFirstName: patched.data.firstName, patchedCompany: patched.data.companyName,
    names, code, status: missing.response.status, requestId: missing.error.requestId,
  }));
}

main(process.argv[2], process.argv[3]).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`;

describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles under tsc --strict and runs a lead flow against the API', async () => {
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body as Record<string, unknown>;
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    // the CLI, as integrators run it (its Node API loads ES modules Jest cannot require)
    const generator = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
    await run(process.execPath, [generator, 'openapi.json', '--output', 'schema.ts'], { cwd: dir });
    writeFileSync(join(dir, 'flow.ts'), FLOW);
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const compile = [
      ...['--strict', '--noEmitOnError', '--skipLibCheck', '--target', 'ES2022'],
      ...['--module', 'commonjs', '--moduleResolution', 'node', '--types', 'node', '--lib', 'ES2023,DOM'],
      ...['--outDir', join(dir, 'out'), join(dir, 'flow.ts')],
    ];
    await run(process.execPath, [tsc, ...compile], { cwd: dir }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc --strict refused the flow:\n${err.stdout}`);
    });

    const baseUrl = await t.listen();
    const { stdout } = await run(
      process.execPath,
      [join(dir, 'out/flow.js'), baseUrl, `typed-client-${randomUUID()}@example.com`],
      {
        cwd: dir,
      },
    );
    expect(JSON.parse(stdout)).toEqual({
      leadId: expect.any(Number),
      company: 'Acme',
      patchedFirstName: 'Gracie',
      patchedCompany: null,
      names: ['Gracie'],
      code: 'NOT_FOUND',
      status: 404,
      requestId: expect.any(String),
    });
  }, 120_000);
});
