import {
  Agency,
  api,
  expectError,
  expectNotFound,
  expectValidation,
  LEAD_DOCUMENT_ROW_FIELDS,
  MINUTE,
  Person,
  seedDocument,
  SignedIn,
  sql,
  TestApp,
} from '../fixtures';

/**
 * Documents on leads (issue 15 item 3 "attachments", INTERFACES.md "Documents"): attach, detach,
 * a lead's documents, with the lead's reach (LeadAccess) and the document policy, the first
 * receipt kept, the 50 cap, the plan gate, and the `document` timeline entries.
 */

const SCOPES = ['crm:read', 'crm:write', 'documents:read', 'documents:write'];
const MISSING_DOCUMENT = '0190a0a0-0000-7000-8000-000000000001';

interface LeadDocumentRow {
  id: string;
  attachedBy: string;
  attachedAt: string;
  attachedLeadCount: number;
  [field: string]: unknown;
}

describe('Lead documents: attach, detach, list, timeline', () => {
  let t: TestApp;
  let a: Agency;
  let other: Agency;

  const withDocumentsKey = async (person: SignedIn): Promise<Person> => ({
    ...person,
    key: (await t.seed.apiKey(person, { name: 'documents', scopes: SCOPES })).key,
  });
  const as = (person: { key: string }) => api(t, person.key);
  const attach = (person: { key: string }, leadId: number, documentId: string) =>
    as(person).put(`/v1/leads/${leadId}/documents/${documentId}`).send({});
  const detach = (person: { key: string }, leadId: number, documentId: string) =>
    as(person).delete(`/v1/leads/${leadId}/documents/${documentId}`);
  const listOf = async (person: { key: string }, leadId: number) => {
    const res = await as(person).get(`/v1/leads/${leadId}/documents`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore']);
    return res.body as { data: LeadDocumentRow[]; hasMore: boolean };
  };
  const events = (leadId: number) =>
    sql<{ action: string; document_id: string }>(
      t,
      'select action, document_id from document_lead_events where lead_id = ? order by at, id',
      [leadId],
    );

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    await t.resetRows();
    const agency = await t.seed.agency('Casa Agency');
    a = {
      admin: await withDocumentsKey(agency.admin),
      member: await withDocumentsKey(agency.member),
      colleague: await withDocumentsKey(agency.colleague),
    };
    const otherAgency = await t.seed.agency('Other Agency');
    other = { ...otherAgency, admin: await withDocumentsKey(otherAgency.admin) };
  });

  it('attach → the Document; a second attach keeps the first receipt and writes no second event', async () => {
    const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
    const doc = await seedDocument(t, a.member, { title: 'Brochure', visibility: 'organization' });
    const first = await attach(a.member, lead.id, doc.id).expect(200);
    expect(first.body).toMatchObject({
      id: doc.id,
      title: 'Brochure',
      visibility: 'organization',
      attachedLeadCount: 1,
      attachedLeadIds: [lead.id],
      truncated: false,
    });
    const [receipt] = await listOf(a.member, lead.id).then((list) => list.data);
    expect(receipt).toMatchObject({ id: doc.id, attachedBy: a.member.userId, attachedLeadCount: 1 });

    t.clock.advance(MINUTE);
    const again = await attach(a.admin, lead.id, doc.id).expect(200);
    expect(again.body).toMatchObject({ attachedLeadCount: 1, attachedLeadIds: [lead.id] });
    const [kept] = (await listOf(a.admin, lead.id)).data;
    expect({ attachedBy: kept.attachedBy, attachedAt: kept.attachedAt }).toEqual({
      attachedBy: a.member.userId,
      attachedAt: receipt.attachedAt,
    });
    expect(await events(lead.id)).toEqual([{ action: 'attached', document_id: doc.id }]);
    // attaching changes no visibility
    const [row] = await sql<{ visibility: string }>(t, 'select visibility from documents where id = ?', [
      doc.id,
    ]);
    expect(row.visibility).toBe('organization');
  });

  it('attachedLeadIds lists only the leads the caller reaches; attachedLeadCount counts all', async () => {
    const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
    const theirs = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
    const doc = await seedDocument(t, a.admin, { visibility: 'organization' });
    await attach(a.admin, mine.id, doc.id).expect(200);
    const byAdmin = await attach(a.admin, theirs.id, doc.id).expect(200);
    expect(byAdmin.body.attachedLeadCount).toBe(2);
    expect([...byAdmin.body.attachedLeadIds].sort()).toEqual([mine.id, theirs.id].sort());
    const byMember = await attach(a.member, mine.id, doc.id).expect(200);
    expect(byMember.body).toMatchObject({ attachedLeadCount: 2, attachedLeadIds: [mine.id] });
  });

  it('a lead out of reach → 404 Lead (before the document); a colleague’s private document → 404 Document', async () => {
    const theirs = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
    const mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
    const own = await seedDocument(t, a.member);
    const colleagues = await seedDocument(t, a.colleague);
    expectNotFound(await attach(a.member, theirs.id, own.id), 'Lead');
    expectNotFound(await attach(a.member, theirs.id, colleagues.id), 'Lead');
    expectNotFound(await detach(a.member, theirs.id, own.id), 'Lead');
    expectNotFound(await as(a.member).get(`/v1/leads/${theirs.id}/documents`), 'Lead');
    expectNotFound(await attach(a.member, mine.id, colleagues.id), 'Document');
    expectNotFound(await detach(a.member, mine.id, colleagues.id), 'Document');
    expectNotFound(await attach(a.member, mine.id, MISSING_DOCUMENT), 'Document');
    expectNotFound(await attach(a.member, 999_999_999, own.id), 'Lead');
    // an admin sees the colleague's private document and reaches every lead
    await attach(a.admin, theirs.id, colleagues.id).expect(200);
    // the member's list leaves out what they cannot see
    await attach(a.admin, mine.id, colleagues.id).expect(200);
    await attach(a.member, mine.id, own.id).expect(200);
    expect((await listOf(a.member, mine.id)).data.map((row) => row.id)).toEqual([own.id]);
    expect((await listOf(a.admin, mine.id)).data.map((row) => row.id).sort()).toEqual(
      [own.id, colleagues.id].sort(),
    );
  });

  it('another agency’s lead or document → 404', async () => {
    const lead = await t.seed.lead(a.admin);
    const doc = await seedDocument(t, a.admin, { visibility: 'organization' });
    const otherLead = await t.seed.lead(other.admin);
    const otherDoc = await seedDocument(t, other.admin, { visibility: 'organization' });
    expectNotFound(await attach(a.admin, otherLead.id, doc.id), 'Lead');
    expectNotFound(await attach(a.admin, lead.id, otherDoc.id), 'Document');
    expectNotFound(await detach(a.admin, lead.id, otherDoc.id), 'Document');
    expectNotFound(await as(a.admin).get(`/v1/leads/${otherLead.id}/documents`), 'Lead');
  });

  it('detach → 204, twice; the timeline shows each real change as a `document` entry', async () => {
    const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
    const doc = await seedDocument(t, a.member, { visibility: 'organization' });
    await detach(a.member, lead.id, doc.id).expect(204);
    expect(await events(lead.id)).toEqual([]);
    t.clock.advance(MINUTE);
    await attach(a.member, lead.id, doc.id).expect(200);
    t.clock.advance(MINUTE);
    await detach(a.member, lead.id, doc.id).expect(204);
    t.clock.advance(MINUTE);
    await detach(a.member, lead.id, doc.id).expect(204);
    expect((await listOf(a.member, lead.id)).data).toEqual([]);
    expect(await events(lead.id)).toEqual([
      { action: 'attached', document_id: doc.id },
      { action: 'detached', document_id: doc.id },
    ]);

    const res = await as(a.member).get(`/v1/leads/${lead.id}/timeline`).expect(200);
    const entries = (res.body.data as { type: string; date: string; document?: unknown }[]).filter(
      (entry) => entry.type === 'document',
    );
    expect(entries).toEqual([
      {
        type: 'document',
        date: expect.any(String),
        document: { documentId: doc.id, action: 'detached', changedBy: a.member.userId },
      },
      {
        type: 'document',
        date: expect.any(String),
        document: { documentId: doc.id, action: 'attached', changedBy: a.member.userId },
      },
    ]);
    expect(new Date(entries[0].date) > new Date(entries[1].date)).toBe(true);
  });

  it('a lead lists the 50 most recently attached documents, hasMore past them', async () => {
    const lead = await t.seed.lead(a.admin);
    const ids: string[] = [];
    for (let i = 0; i < 51; i += 1) {
      const doc = await seedDocument(t, a.admin, { title: `Doc ${i}`, visibility: 'organization' });
      ids.push(doc.id);
      await attach(a.admin, lead.id, doc.id).expect(200);
      t.clock.advance(1000);
    }
    const list = await listOf(a.admin, lead.id);
    expect(list.hasMore).toBe(true);
    expect(list.data).toHaveLength(50);
    expect(list.data.map((row) => row.id)).toEqual(ids.slice(1).reverse());
    expect(Object.keys(list.data[0]).sort()).toEqual(LEAD_DOCUMENT_ROW_FIELDS);
    await detach(a.admin, lead.id, ids[50]).expect(204);
    const after = await listOf(a.admin, lead.id);
    expect(after).toMatchObject({ hasMore: false });
    expect(after.data).toHaveLength(50);
  });

  it('a shared row shows its shareUrl until it expires (then none, revoked at the expiry)', async () => {
    const lead = await t.seed.lead(a.admin);
    const expiresAt = new Date(t.clock.now().getTime() + 10 * MINUTE);
    const doc = await seedDocument(t, a.admin, { share: { token: 'tok_'.padEnd(43, 'x'), expiresAt } });
    await attach(a.admin, lead.id, doc.id).expect(200);
    expect((await listOf(a.admin, lead.id)).data[0].shareUrl).toMatch(/\/d\/tok_x+$/);
    t.clock.advance(11 * MINUTE);
    const [row] = (await listOf(a.admin, lead.id)).data;
    expect(row).toMatchObject({ shareUrl: null, visibility: 'organization' });
  });

  it('plan off → 403 SUBSCRIPTION_REQUIRED on every route, reads included; scopes are needed', async () => {
    const lead = await t.seed.lead(a.admin);
    const doc = await seedDocument(t, a.admin, { visibility: 'organization' });
    await t.seed.plan(a.admin, false);
    expectError(await attach(a.admin, lead.id, doc.id), 403, 'SUBSCRIPTION_REQUIRED');
    expectError(await detach(a.admin, lead.id, doc.id), 403, 'SUBSCRIPTION_REQUIRED');
    expectError(await as(a.admin).get(`/v1/leads/${lead.id}/documents`), 403, 'SUBSCRIPTION_REQUIRED');
    await t.seed.plan(a.admin, true);
    const crmOnly = (await t.seed.apiKey(a.admin, { name: 'crm', scopes: ['crm:read', 'crm:write'] })).key;
    expectError(await api(t, crmOnly).get(`/v1/leads/${lead.id}/documents`), 403, 'API_KEY_SCOPE_MISSING');
    expectError(
      await api(t, crmOnly).put(`/v1/leads/${lead.id}/documents/${doc.id}`).send({}),
      403,
      'API_KEY_SCOPE_MISSING',
    );
    const readOnly = (await t.seed.apiKey(a.admin, { name: 'ro', scopes: ['documents:read'] })).key;
    expectError(
      await api(t, readOnly).delete(`/v1/leads/${lead.id}/documents/${doc.id}`),
      403,
      'API_KEY_SCOPE_MISSING',
    );
  });

  it('bad ids → 400 VALIDATION_FAILED', async () => {
    const lead = await t.seed.lead(a.admin);
    expectValidation(await attach(a.admin, lead.id, 'not-a-uuid'), 'documentId');
    expectValidation(await attach(a.admin, 0, MISSING_DOCUMENT), 'leadId');
    expectValidation(await as(a.admin).get('/v1/leads/abc/documents'), 'leadId');
  });
});
