import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Agency, api, callTool, mcpClient, postMcpKey, TestApp } from '../fixtures';

describe('MCP server (POST /mcp)', () => {
  let t: TestApp;
  let url: string;
  let a: Agency;
  const clients: Client[] = [];
  const connect = async (key: string, headers?: Record<string, string>) => {
    const client = await mcpClient(url, key, headers);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    url = await t.listen();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    a = await t.seed.agency();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('lists the tools and answers get_me, list_leads and get_lead as /v1 does', async () => {
    const lead = await t.seed.lead(a.member);
    const { key } = await postMcpKey(t, a.member, ['crm:read']);
    const client = await connect(key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['get_me', 'list_leads', 'get_lead']),
    );
    const listed = await callTool(client, 'list_leads', {});
    const v1 = await api(t, a.member.key).get('/v1/leads').expect(200);
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual(v1.body);
    const one = await callTool(client, 'get_lead', { leadId: lead.id });
    expect(one.structuredContent).toEqual((await api(t, a.member.key).get(`/v1/leads/${lead.id}`)).body);
    const me = await callTool(client, 'get_me');
    expect(me.structuredContent).toMatchObject({ role: 'member', user: { id: a.member.userId } });
  });
});
