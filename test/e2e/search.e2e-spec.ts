import type { Response } from 'supertest';
import {
  Agency,
  api,
  connector,
  expectError,
  expectNotFound,
  expectValidation,
  LeadJson,
  leadIdsOf,
  matchOf,
  MINUTE,
  postSearch,
  search,
  SearchAnswer,
  shareLead,
  sql,
  TestApp,
} from '../fixtures';

/** Words of a snippet (what carries a letter or a digit; `…` alone is no word). */
const wordsOf = (snippet: string) => snippet.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));

/** About forty words of small talk, so a passage's match sits past the first thirty words. */
const SMALL_TALK =
  'The client called again this morning to go over the move, the schools for the children, the ' +
  'mortgage offer from the bank and the dates that suit the family; nothing is decided yet and ' +
  'they will call back next week once everything is settled.';

/**
 * `POST /v1/search` (INTERFACES.md "Search"; issue 18 "Tests"): the answer's shape, reach
 * (members, admins, shares, other agencies), every source kind as soon as it is written and gone
 * once deleted, languages, dates, validation, the rerank flag, scopes and plan, and the shared
 * limit. Everything is written over HTTP (`/v1` and `/integrations/v1`), as the product would
 * receive it; only `lead_share` rows (no route writes them yet) are inserted with SQL.
 */
describe('POST /v1/search', () => {
  let t: TestApp;
  let a: Agency;
  let b: Agency;
  let aConnector: ReturnType<typeof connector>;
  let bConnector: ReturnType<typeof connector>;
  let n = 0;
  const ext = (label: string) => `${label}-${++n}`;

  beforeAll(async () => {
    t = await TestApp.start();
    a = await t.seed.agency('Casa Search');
    b = await t.seed.agency('Other Search');
    aConnector = connector(t, (await t.seed.integrationKey(a.admin, 'aircall')).key);
    bConnector = connector(t, (await t.seed.integrationKey(b.admin, 'aircall')).key);
  });
  afterAll(() => t.stop());
  // the shared limit is 30 a minute per organization: each test starts in a fresh minute
  beforeEach(() => t.clock.advance(MINUTE));

  const note = async (
    key: string,
    leadId: number,
    content: string,
  ): Promise<{ id: string; createdAt: string }> => {
    const res = await api(t, key).post(`/v1/leads/${leadId}/notes`).send({ content });
    if (res.status !== 201) throw new Error(`note: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const task = async (key: string, body: Record<string, unknown>): Promise<{ id: string }> => {
    const res = await api(t, key).post('/v1/tasks').send(body);
    if (res.status !== 201) throw new Error(`task: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** What the admin of `a` finds on one lead. */
  const onLead = (leadId: number, query: string, key = a.admin.key) => search(t, key, { query, leadId });

  describe('the answer', () => {
    let lead: LeadJson;
    let first: { id: string };
    beforeAll(async () => {
      lead = await t.seed.lead(a.admin);
      first = await note(
        a.admin.key,
        lead.id,
        `${SMALL_TALK} They asked twice about the ziggurat roof terrace, which they loved. ${SMALL_TALK}`,
      );
      for (const words of ['ziggurat again', 'a ziggurat view', 'the ziggurat once more'])
        await note(a.admin.key, lead.id, `Mentioned the ${words}.`);
      await task(a.admin.key, { leadId: lead.id, title: 'Photograph the ziggurat' });
    });

    it('is {matches:[{leadId, matchCount, sourceCount, bestMatchAt, evidence}], tookMs, reranked}', async () => {
      const res = await postSearch(t, a.admin.key, { query: 'ziggurat', leadId: lead.id });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['matches', 'reranked', 'tookMs']);
      expect(Number.isInteger(res.body.tookMs)).toBe(true);
      expect(res.body.tookMs).toBeGreaterThanOrEqual(0);
      expect(typeof res.body.reranked).toBe('boolean');
      const answer = res.body as SearchAnswer;
      expect(answer.matches).toEqual([
        {
          leadId: lead.id,
          matchCount: 5,
          sourceCount: 2,
          bestMatchAt: expect.any(String),
          evidence: expect.any(Array),
        },
      ]);
      const [match] = answer.matches;
      expect(match.evidence).toHaveLength(3);
      for (const evidence of match.evidence) {
        expect(evidence).toEqual({
          snippet: expect.stringMatching(/ziggurat/i),
          source: expect.stringMatching(/^(note|task)$/),
          sourceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          untrusted: false,
        });
      }
      expect(match.bestMatchAt).toBe(match.evidence[0].occurredAt);
    });

    it('cuts a long passage to at most 30 words of plain text around the match, `…` at both cut ends', async () => {
      const answer = await onLead(lead.id, 'ziggurat roof terrace');
      const long = matchOf(answer, lead.id).evidence.find((e) => e.sourceId === first.id);
      expect(long).toBeDefined();
      const snippet = long!.snippet;
      expect(snippet).toMatch(/ziggurat/);
      expect(wordsOf(snippet).length).toBeLessThanOrEqual(30);
      expect(snippet.startsWith('…')).toBe(true);
      expect(snippet.endsWith('…')).toBe(true);
      expect(snippet).not.toMatch(/[<>]|\*\*/);
      // a short passage is whole: nothing cut, no `…`
      const short = await onLead(lead.id, '"ziggurat view"');
      expect(short.matches[0].evidence.map((e) => e.snippet)).toContainEqual(
        expect.stringMatching(/^Mentioned the a ziggurat view\.?$/),
      );
    });

    it('answers 10 leads unless maxResults says otherwise', async () => {
      const leads = [];
      for (let i = 0; i < 11; i++) {
        const lead = await t.seed.lead(a.admin);
        await note(a.admin.key, lead.id, `Lead ${i} keeps asking about the orangery.`);
        leads.push(lead.id);
      }
      expect((await search(t, a.admin.key, { query: 'orangery' })).matches).toHaveLength(10);
      const all = await search(t, a.admin.key, { query: 'orangery', maxResults: 30 });
      expect(leadIdsOf(all).sort()).toEqual(leads.sort());
    });

    it('answers maxResults leads at most, and nothing for words nobody wrote', async () => {
      const other = await t.seed.lead(a.admin);
      await note(a.admin.key, other.id, 'The ziggurat is what they want too.');
      const one = await search(t, a.admin.key, { query: 'ziggurat', maxResults: 1 });
      expect(one.matches).toHaveLength(1);
      const two = await search(t, a.admin.key, { query: 'ziggurat', maxResults: 2 });
      expect(leadIdsOf(two).sort()).toEqual([lead.id, other.id].sort());
      const none = await search(t, a.admin.key, { query: 'xylophonist' });
      expect(none).toEqual({ matches: [], tookMs: expect.any(Number), reranked: false });
    });
  });

  describe('reach', () => {
    /** Leads of `a`: the member's, the colleague's, nobody's; of `b`: one shared with `a.member`, one not. */
    let mine: LeadJson;
    let colleagues: LeadJson;
    let unassigned: LeadJson;
    let shared: LeadJson;
    let foreign: LeadJson;
    /** Every answer to `a`'s people in this block, to look for `b`'s canary. */
    const answers: unknown[] = [];
    const searchAs = async (key: string, body: Parameters<typeof search>[2]) => {
      const res = await postSearch(t, key, body);
      if (key !== b.admin.key) answers.push(res.body);
      return res;
    };
    const found = async (key: string, query: string): Promise<SearchAnswer> => {
      const res = await searchAs(key, { query, maxResults: 30 });
      expect(res.status).toBe(200);
      return res.body;
    };

    beforeAll(async () => {
      mine = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      colleagues = await t.seed.lead(a.admin, { assigneeIds: [a.colleague.userId] });
      unassigned = await t.seed.lead(a.admin, { unassigned: true });
      shared = await t.seed.lead(b.admin, { assigneeIds: [b.member.userId] });
      foreign = await t.seed.lead(b.admin, { assigneeIds: [b.member.userId] });
      await note(a.member.key, mine.id, 'Wants a pergola over the patio; reference kumquat.');
      await note(a.colleague.key, colleagues.id, 'Wants a pergola by the pool; reference rhubarb.');
      await note(a.admin.key, unassigned.id, 'Wants a pergola somewhere; reference tamarind.');
      await note(b.member.key, shared.id, 'Wants a pergola and a barbecue; reference persimmon.');
      await note(b.member.key, foreign.id, 'Wants a pergola in the garden; canary quandong.');
      await bConnector.message(ext('msg'), foreign.id, 'My pergola budget is the quandong fund');
      await bConnector.email(ext('mail'), foreign.id, 'Pergola and quandong', 'The quandong pergola, again.');
      await shareLead(t, { id: shared.id, organizationId: b.admin.organizationId }, a.member);
    });

    it('a member finds their own leads and those shared with them, never a colleague’s or an unassigned one', async () => {
      const answer = await found(a.member.key, 'pergola');
      expect(leadIdsOf(answer).sort()).toEqual([mine.id, shared.id].sort());
      const json = JSON.stringify(answer);
      for (const word of ['rhubarb', 'tamarind', 'quandong']) expect(json).not.toContain(word);
      expect(matchOf(answer, shared.id).evidence[0].snippet).toContain('persimmon');
      // words only an unreachable lead holds find nothing at all
      for (const word of ['rhubarb', 'tamarind'])
        expect((await found(a.member.key, word)).matches).toEqual([]);
      const colleague = await found(a.colleague.key, 'pergola');
      expect(leadIdsOf(colleague)).toEqual([colleagues.id]);
    });

    it('an admin finds every lead of the agency, none of another agency', async () => {
      const answer = await found(a.admin.key, 'pergola');
      expect(leadIdsOf(answer).sort()).toEqual([mine.id, colleagues.id, unassigned.id].sort());
      expect(JSON.stringify(answer)).not.toMatch(/persimmon|quandong/);
      const theirs = await found(b.admin.key, 'pergola');
      expect(leadIdsOf(theirs).sort()).toEqual([shared.id, foreign.id].sort());
      expect(JSON.stringify(theirs)).not.toMatch(/kumquat|rhubarb|tamarind/);
    });

    it('leadId: a shared lead is searchable by the person it was shared with, by nobody else of the agency', async () => {
      const res = await searchAs(a.member.key, { query: 'pergola', leadId: shared.id });
      expect(res.status).toBe(200);
      expect(leadIdsOf(res.body)).toEqual([shared.id]);
      expectNotFound(await searchAs(a.colleague.key, { query: 'pergola', leadId: shared.id }), 'Lead');
      expectNotFound(await searchAs(a.admin.key, { query: 'pergola', leadId: shared.id }), 'Lead');
      // the share withdrawn, the lead is out of reach at once
      await sql(t, 'delete from lead_share where lead_id = ?', [shared.id]);
      expectNotFound(await searchAs(a.member.key, { query: 'pergola', leadId: shared.id }), 'Lead');
      expect(leadIdsOf(await found(a.member.key, 'persimmon'))).toEqual([]);
      await shareLead(t, { id: shared.id, organizationId: b.admin.organizationId }, a.member);
    });

    it('leadId out of reach → 404 `Lead not found.`: another agency’s, a colleague’s or an unassigned one for a member', async () => {
      for (const key of [a.admin.key, a.member.key])
        expectNotFound(await searchAs(key, { query: 'pergola', leadId: foreign.id }), 'Lead');
      expectNotFound(await searchAs(a.member.key, { query: 'pergola', leadId: unassigned.id }), 'Lead');
      expectNotFound(await searchAs(a.member.key, { query: 'pergola', leadId: colleagues.id }), 'Lead');
      expectNotFound(
        await searchAs(a.admin.key, { query: 'pergola', leadId: 9_007_199_254_740_991 }),
        'Lead',
      );
      // an admin reaches the unassigned lead, and only it
      const res = await searchAs(a.admin.key, { query: 'pergola', leadId: unassigned.id });
      expect(leadIdsOf(res.body)).toEqual([unassigned.id]);
    });

    it('follows reassignment at once: the new owner finds the lead, the old one no longer does', async () => {
      const moved = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      await note(a.admin.key, moved.id, 'Reassignment check: a pergola and a cenote.');
      expect(leadIdsOf(await found(a.member.key, 'cenote'))).toEqual([moved.id]);
      await api(t, a.admin.key)
        .put(`/v1/leads/${moved.id}/assignees`)
        .send({ userIds: [a.colleague.userId] })
        .expect(200);
      expect((await found(a.member.key, 'cenote')).matches).toEqual([]);
      expectNotFound(await searchAs(a.member.key, { query: 'cenote', leadId: moved.id }), 'Lead');
      expect(leadIdsOf(await found(a.colleague.key, 'cenote'))).toEqual([moved.id]);
    });

    it('never shows another agency’s canary, whatever is asked', async () => {
      for (const query of ['quandong', 'canary quandong', 'quandon', '"canary quandong"'])
        for (const key of [a.admin.key, a.member.key]) expect((await found(key, query)).matches).toEqual([]);
      expect(answers.length).toBeGreaterThan(10);
      for (const answer of answers) expect(JSON.stringify(answer)).not.toContain('quandong');
    });
  });

  describe('sources: searchable once written, gone once deleted', () => {
    it('notes: created, edited, deleted', async () => {
      const lead = await t.seed.lead(a.admin, { assigneeIds: [a.member.userId] });
      const written = await note(a.member.key, lead.id, 'Loves the bougainvillea on the facade.');
      expect((await onLead(lead.id, 'bougainvillea')).matches[0].evidence).toEqual([
        {
          // the whole note, nothing cut (ts_headline leaves out the final full stop)
          snippet: expect.stringMatching(/^Loves the bougainvillea on the facade\.?$/),
          source: 'note',
          sourceId: written.id,
          occurredAt: written.createdAt,
          untrusted: false,
        },
      ]);
      await api(t, a.member.key)
        .patch(`/v1/notes/${written.id}`)
        .send({ content: 'Prefers the wisteria after all.' })
        .expect(200);
      expect((await onLead(lead.id, 'bougainvillea')).matches).toEqual([]);
      expect((await onLead(lead.id, 'wisteria')).matches[0].evidence[0].sourceId).toBe(written.id);
      await api(t, a.member.key).delete(`/v1/notes/${written.id}`).expect(204);
      expect((await onLead(lead.id, 'wisteria')).matches).toEqual([]);
    });

    it('tasks: title and description, gone once deleted', async () => {
      const lead = await t.seed.lead(a.admin);
      const written = await task(a.admin.key, {
        leadId: lead.id,
        title: 'Send the gazebo plans',
        description: 'Include the xeriscape proposal',
      });
      for (const word of ['gazebo', 'xeriscape']) {
        const [match] = (await onLead(lead.id, word)).matches;
        expect(match.evidence[0]).toMatchObject({ source: 'task', sourceId: written.id, untrusted: false });
        expect(match.evidence[0].snippet).toContain(word);
      }
      await api(t, a.admin.key)
        .patch(`/v1/tasks/${written.id}`)
        .send({ title: 'Send the pavilion plans' })
        .expect(200);
      expect((await onLead(lead.id, 'gazebo')).matches).toEqual([]);
      expect((await onLead(lead.id, 'pavilion')).matches[0].evidence[0].sourceId).toBe(written.id);
      await api(t, a.admin.key).delete(`/v1/tasks/${written.id}`).expect(204);
      for (const word of ['pavilion', 'xeriscape']) expect((await onLead(lead.id, word)).matches).toEqual([]);
    });

    it('messages: inbound untrusted, outbound not; a replaced body replaces its words', async () => {
      const lead = await t.seed.lead(a.admin);
      const inboundId = ext('msg');
      const inbound = await aConnector.message(inboundId, lead.id, 'Is the oleander hedge included?', {
        at: '2026-10-01T08:30:00Z',
      });
      const outbound = await aConnector.message(ext('msg'), lead.id, 'Yes, the oleander hedge stays.', {
        direction: 'outbound',
        status: 'sent',
        at: '2026-10-01T09:00:00Z',
      });
      const evidence = (await onLead(lead.id, 'oleander')).matches[0].evidence;
      expect(evidence.map(({ sourceId, untrusted, source }) => ({ sourceId, untrusted, source }))).toEqual(
        expect.arrayContaining([
          { sourceId: inbound.id, untrusted: true, source: 'message' },
          { sourceId: outbound.id, untrusted: false, source: 'message' },
        ]),
      );
      expect(evidence.find((e) => e.sourceId === inbound.id)!.occurredAt).toBe('2026-10-01T08:30:00.000Z');
      await aConnector.message(inboundId, lead.id, 'Is the hibiscus included?', {
        at: '2026-10-01T08:30:00Z',
      });
      expect(leadIdsOf(await onLead(lead.id, 'hibiscus'))).toEqual([lead.id]);
      const after = (await onLead(lead.id, 'oleander')).matches[0].evidence;
      expect(after.map((e) => e.sourceId)).toEqual([outbound.id]);
    });

    it('emails: subject and body; inbound untrusted, outbound not', async () => {
      const lead = await t.seed.lead(a.admin);
      const inbound = await aConnector.email(
        ext('mail'),
        lead.id,
        'Question about the solarium',
        'Does it have a dumbwaiter?',
      );
      const outbound = await aConnector.email(
        ext('mail'),
        lead.id,
        'Your visit',
        'The cupola was restored last year.',
        {
          source: 'manual',
          captureDirection: undefined,
          status: 'sent',
          sentAt: '2026-11-20T11:00:00Z',
          messageAt: '2026-11-20T11:00:00Z',
        },
      );
      for (const word of ['solarium', 'dumbwaiter']) {
        expect((await onLead(lead.id, word)).matches[0].evidence[0]).toMatchObject({
          source: 'email',
          sourceId: inbound.id,
          untrusted: true,
        });
      }
      expect((await onLead(lead.id, 'cupola')).matches[0].evidence[0]).toMatchObject({
        source: 'email',
        sourceId: outbound.id,
        untrusted: false,
      });
    });

    it('transcripts: a transcript arriving after its call is searchable, untrusted; a new one replaces it', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'en' });
      const callId = ext('call');
      const call = await aConnector.call(callId, lead.id);
      expect((await onLead(lead.id, 'chimenea')).matches).toEqual([]);
      t.clock.advance(5 * MINUTE);
      await aConnector.transcript(
        callId,
        'Agent: hola. Cliente: la chimenea funciona bien, ¿verdad?',
        'es-ES',
      );
      expect((await onLead(lead.id, 'chimenea')).matches[0].evidence).toEqual([
        {
          snippet: expect.stringContaining('chimenea'),
          source: 'transcript',
          sourceId: call.id,
          occurredAt: expect.any(String),
          untrusted: true,
        },
      ]);
      await aConnector.transcript(callId, 'Customer: the aqueduct view is what sold it to me.');
      expect((await onLead(lead.id, 'chimenea')).matches).toEqual([]);
      expect((await onLead(lead.id, 'aqueduct')).matches[0].evidence[0]).toMatchObject({
        source: 'transcript',
        sourceId: call.id,
      });
    });

    it('analyses: summary, objections, next steps and coaching tips, trusted; a new one replaces it', async () => {
      const lead = await t.seed.lead(a.admin);
      const callId = ext('call');
      const call = await aConnector.call(callId, lead.id);
      await aConnector.analysis(callId, {
        summary: 'They asked about the mezzanine.',
        objections: [{ topic: 'the funicular noise', handled: false }],
        nextSteps: [{ text: 'Send the cadastre extract', owner: 'agent' }],
        coachingTips: [{ tip: 'Mention the portico earlier' }],
      });
      for (const word of ['mezzanine', 'funicular', 'cadastre', 'portico']) {
        const [match] = (await onLead(lead.id, word)).matches;
        expect(match.evidence).toEqual([
          expect.objectContaining({ source: 'analysis', sourceId: call.id, untrusted: false }),
        ]);
        expect(match.evidence[0].snippet).toContain(word);
      }
      await aConnector.analysis(callId, { summary: 'They asked about the belvedere.' });
      expect((await onLead(lead.id, 'mezzanine')).matches).toEqual([]);
      expect(leadIdsOf(await onLead(lead.id, 'belvedere'))).toEqual([lead.id]);
    });
  });

  describe('language', () => {
    /** A Spanish lead of `a` with one long note; the words under test sit past its first thirty words. */
    const spanishLead = async (words: string): Promise<LeadJson> => {
      const lead = await t.seed.lead(a.admin, { language: 'es' });
      await note(a.admin.key, lead.id, `${SMALL_TALK} Lo importante: ${words}. ${SMALL_TALK}`);
      return lead;
    };
    /** The snippet the lead's best passage shows (the matched word is in it: full text found it). */
    const snippetFor = async (leadId: number, query: string) => {
      const answer = await onLead(leadId, query);
      expect(leadIdsOf(answer)).toEqual([leadId]);
      return answer.matches[0].evidence[0].snippet;
    };

    it('ignores accents both ways: `jardin` finds `jardín`, `jardín` finds `jardin`', async () => {
      const accented = await spanishLead('quieren un jardín grande');
      expect(await snippetFor(accented.id, 'jardin')).toContain('jardín');
      const bare = await spanishLead('quieren un jardin grande');
      expect(await snippetFor(bare.id, 'JARDÍN')).toContain('jardin');
    });

    it('knows word forms of the lead’s language: `viviendas` finds `vivienda` and back', async () => {
      const singular = await spanishLead('buscan una vivienda cerca del colegio');
      expect(await snippetFor(singular.id, 'viviendas')).toContain('vivienda');
      const plural = await spanishLead('han visto tres viviendas en la zona');
      expect(await snippetFor(plural.id, 'vivienda')).toContain('viviendas');
    });

    it('knows the thesaurus: `flat` finds a note saying `piso`, after one saying `flat`', async () => {
      const piso = await spanishLead('quieren un piso luminoso');
      expect(await snippetFor(piso.id, 'flat')).toContain('piso');
      // an alternative weighs less than the caller's own word
      const flat = await t.seed.lead(a.admin, { language: 'es' });
      await note(
        a.admin.key,
        flat.id,
        `${SMALL_TALK} Lo importante: quieren un flat luminoso. ${SMALL_TALK}`,
      );
      const both = await search(t, a.admin.key, { query: 'flat', maxResults: 30 });
      expect(leadIdsOf(both).indexOf(flat.id)).toBeLessThan(leadIdsOf(both).indexOf(piso.id));
      expect(leadIdsOf(both)).toContain(piso.id);
    });

    // short words in these three: the trigram pass (words of 4 letters or more) stays out of them
    it('keeps "quoted words" together', async () => {
      const together = await t.seed.lead(a.admin, { language: 'en' });
      await note(a.admin.key, together.id, 'A big elm by the gate.');
      const apart = await t.seed.lead(a.admin, { language: 'en' });
      await note(a.admin.key, apart.id, 'The elm by the gate is not big.');
      expect(leadIdsOf(await onLead(apart.id, 'big elm'))).toEqual([apart.id]);
      expect((await onLead(apart.id, '"big elm"')).matches).toEqual([]);
      expect(leadIdsOf(await onLead(together.id, '"big elm"'))).toEqual([together.id]);
    });

    it('keeps "quoted words" together when one is a stop word of a language searched (`sea` in Spanish)', async () => {
      await t.seed.lead(a.admin, { language: 'es' }); // Spanish stays among the agency's languages
      const together = await t.seed.lead(a.admin, { language: 'en' });
      await note(a.admin.key, together.id, 'They want a red sea view.');
      const apart = await t.seed.lead(a.admin, { language: 'en' });
      await note(a.admin.key, apart.id, 'The sea was calm and the roof red.');
      expect(leadIdsOf(await onLead(together.id, '"red sea"'))).toEqual([together.id]);
      expect((await onLead(apart.id, '"red sea"')).matches).toEqual([]);
    });

    it('never matches "quoted words" across a passage’s last word and its first', async () => {
      const lead = await t.seed.lead(a.admin, { language: 'en' });
      await note(a.admin.key, lead.id, 'Elm trees line the way up to an old oak');
      expect(leadIdsOf(await onLead(lead.id, '"old oak"'))).toEqual([lead.id]);
      expect((await onLead(lead.id, '"oak elm"')).matches).toEqual([]);
    });

    it('does not fill "quoted words" up with passages holding them apart (trigram pass)', async () => {
      const apart = await t.seed.lead(a.admin, { language: 'en' });
      await note(a.admin.key, apart.id, 'The staircase is old; the floors are marble.');
      expect((await onLead(apart.id, '"marble staircase"')).matches).toEqual([]);
    });

    it('forgives a small typo: `Marbela` finds `Marbella`', async () => {
      const lead = await t.seed.lead(a.admin);
      await note(a.admin.key, lead.id, 'Looking in Marbella, near the old town.');
      expect(leadIdsOf(await onLead(lead.id, 'Marbela'))).toEqual([lead.id]);
      const anywhere = await search(t, a.admin.key, { query: 'Marbela', maxResults: 30 });
      expect(leadIdsOf(anywhere)).toContain(lead.id);
    });

    it('forgives two swapped letters in a short name (few shared trigrams, two edits): `Hionjal` finds `Hinojal`', async () => {
      const lead = await t.seed.lead(a.admin);
      await note(a.admin.key, lead.id, 'They loved the finca at Hinojal, with the old well.');
      const answer = await onLead(lead.id, 'Hionjal');
      expect(leadIdsOf(answer)).toEqual([lead.id]);
      expect(answer.matches[0].evidence[0].snippet).toContain('Hinojal');
      // a word three edits away is no typo of it
      expect((await onLead(lead.id, 'Hnoijla')).matches).toEqual([]);
    });

    it('a typo’s evidence shows the passage around the word it matched', async () => {
      const lead = await t.seed.lead(a.admin);
      const filler = (word: string) => Array.from({ length: 40 }, (_, i) => `${word}${i}`).join(' ');
      await note(
        a.admin.key,
        lead.id,
        `${filler('alpha')} They fell for Benahavís last spring. ${filler('omega')}`,
      );
      const [match] = (await onLead(lead.id, 'Benahaviz')).matches;
      expect(match.evidence[0].snippet).toContain('Benahavís');
      expect(match.evidence[0].snippet).toMatch(/^….*…$/);
    });
  });

  describe('dates: occurredFrom and occurredTo', () => {
    let lead: LeadJson;
    /** Messages at 23:30 on 10 March, 00:30 on 11 March and noon on 12 March 2026 (UTC). */
    let late: string;
    let early: string;
    let noon: string;
    beforeAll(async () => {
      lead = await t.seed.lead(a.admin);
      const at = async (when: string) =>
        (await aConnector.message(ext('msg'), lead.id, 'Saw a cormorant from the balcony', { at: when })).id;
      late = await at('2026-03-10T23:30:00Z');
      early = await at('2026-03-11T00:30:00Z');
      noon = await at('2026-03-12T12:00:00Z');
    });
    const within = async (window: { occurredFrom?: string; occurredTo?: string }) => {
      const answer = await search(t, a.admin.key, { query: 'cormorant', leadId: lead.id, ...window });
      return answer.matches.flatMap((m) => m.evidence.map((e) => e.sourceId)).sort();
    };

    it('a date covers its whole UTC day, at either end', async () => {
      expect(await within({})).toEqual([late, early, noon].sort());
      expect(await within({ occurredFrom: '2026-03-11', occurredTo: '2026-03-11' })).toEqual([early]);
      expect(await within({ occurredTo: '2026-03-10' })).toEqual([late]);
      expect(await within({ occurredFrom: '2026-03-11' })).toEqual([early, noon].sort());
      expect(await within({ occurredFrom: '2026-03-13' })).toEqual([]);
      // a date-time from inside the `to` date's day: the rest of that day
      expect(await within({ occurredFrom: '2026-03-11T00:15:00Z', occurredTo: '2026-03-11' })).toEqual([
        early,
      ]);
    });

    it('date-times bound to the instant, offsets read', async () => {
      expect(
        await within({ occurredFrom: '2026-03-10T23:00:00Z', occurredTo: '2026-03-11T00:00:00Z' }),
      ).toEqual([late]);
      // 01:00 at +01:00 is midnight UTC
      expect(await within({ occurredFrom: '2026-03-11T01:00:00+01:00' })).toEqual([early, noon].sort());
      expect(await within({ occurredTo: '2026-03-11T01:45:00+01:00' })).toEqual([late, early].sort());
    });

    it('from after to, or a date that is none → 400 VALIDATION_FAILED', async () => {
      const refused = (window: Record<string, string>) =>
        postSearch(t, a.admin.key, { query: 'cormorant', ...window });
      expectValidation(
        await refused({ occurredFrom: '2026-03-12', occurredTo: '2026-03-11' }),
        'occurredFrom',
      );
      expectValidation(
        await refused({ occurredFrom: '2026-03-11T12:00:00Z', occurredTo: '2026-03-11T11:59:59Z' }),
        'occurredFrom',
      );
      expectValidation(await refused({ occurredFrom: '2026-02-30' }), 'occurredFrom');
      expectValidation(await refused({ occurredTo: '11/03/2026' }), 'occurredTo');
    });
  });

  describe('validation: 400 VALIDATION_FAILED in the spec envelope', () => {
    it('refuses a bad query, maxResults or leadId, naming the field', async () => {
      const cases: [string, unknown, string][] = [
        ['an empty query', { query: '' }, 'query'],
        ['a whitespace-only query', { query: '  \t\n ' }, 'query'],
        ['a query of 501 characters', { query: 'a'.repeat(501) }, 'query'],
        ['no query', { maxResults: 5 }, 'query'],
        ['a query that is no string', { query: 42 }, 'query'],
        ['maxResults 0', { query: 'pool', maxResults: 0 }, 'maxResults'],
        ['maxResults 31', { query: 'pool', maxResults: 31 }, 'maxResults'],
        ['maxResults 2.5', { query: 'pool', maxResults: 2.5 }, 'maxResults'],
        ['a leadId of 1.5', { query: 'pool', leadId: 1.5 }, 'leadId'],
        ['a leadId as a string', { query: 'pool', leadId: '12' }, 'leadId'],
        ['occurredFrom that is no string', { query: 'pool', occurredFrom: 20260311 }, 'occurredFrom'],
      ];
      for (const [label, body, path] of cases) {
        const res = await postSearch(t, a.admin.key, body);
        expect({ label, status: res.status }).toEqual({ label, status: 400 });
        expectValidation(res, path);
      }
    });

    it('reads any text as words: search syntax, SQL and symbols never fail the request', async () => {
      const lead = await t.seed.lead(a.admin);
      await note(a.admin.key, lead.id, 'The pool needs a new pump.');
      for (const query of [
        '"unclosed quote pool',
        'pool & pump | !(heater)',
        'pool:* <-> pump',
        "'; drop table leads; --",
        '-pool or',
        '!!! ??? ...',
        '%_\\ ~^`',
        'the and of',
        '🏊 pool',
      ]) {
        const res = await postSearch(t, a.admin.key, { query, leadId: lead.id });
        expect({ query, status: res.status }).toEqual({ query, status: 200 });
      }
      expect(leadIdsOf(await onLead(lead.id, 'pool & pump | !(heater)'))).toEqual([lead.id]);
    });

    it('a body that is no object (a JSON array)', async () => {
      expectError(await postSearch(t, a.admin.key, [{ query: 'pool' }]), 400, 'VALIDATION_FAILED');
    });

    it('accepts the edges: 500 characters (after trimming) and maxResults 30', async () => {
      expect((await postSearch(t, a.admin.key, { query: 'p'.repeat(500) })).status).toBe(200);
      expect((await postSearch(t, a.admin.key, { query: `   ${'p'.repeat(500)}   ` })).status).toBe(200);
      expect((await postSearch(t, a.admin.key, { query: 'pool', maxResults: 30 })).status).toBe(200);
      expect((await postSearch(t, a.admin.key, { query: 'pool', maxResults: 1 })).status).toBe(200);
    });
  });

  describe('reranked', () => {
    it('true when several candidates were reranked, the lead with the most to say first', async () => {
      const strong = await t.seed.lead(a.admin);
      const weak = await t.seed.lead(a.admin);
      await note(
        a.admin.key,
        strong.id,
        'The lighthouse, the lighthouse keeper cottage and the lighthouse view.',
      );
      await note(a.admin.key, strong.id, 'Asked again about the lighthouse.');
      await note(
        a.admin.key,
        weak.id,
        'Drove past a lighthouse on the way, among many other things they saw.',
      );
      const answer = await search(t, a.admin.key, { query: 'lighthouse' });
      expect(answer.reranked).toBe(true);
      expect(leadIdsOf(answer).slice(0, 2)).toEqual([strong.id, weak.id]);
    });

    it('false with a single candidate', async () => {
      const lead = await t.seed.lead(a.admin);
      await note(a.admin.key, lead.id, 'One chandelier in the hall.');
      const answer = await onLead(lead.id, 'chandelier');
      expect(answer.matches).toHaveLength(1);
      expect(answer.reranked).toBe(false);
    });
  });

  describe('door', () => {
    it('needs crm:read: 403 API_KEY_SCOPE_MISSING', async () => {
      const key = await t.seed.apiKey(a.admin, { name: 'listings only', scopes: ['properties:read'] });
      expectError(await postSearch(t, key.key, { query: 'pool' }), 403, 'API_KEY_SCOPE_MISSING', {
        missing: ['crm:read'],
      });
    });

    it('needs no plan: an agency without an active plan searches', async () => {
      const admin = await t.seed.organization({ name: 'No Plan Search' });
      const key = (await t.seed.apiKey(admin, { name: 'read', scopes: ['crm:read'] })).key;
      const lead = await t.seed.lead(admin);
      await note(
        (await t.seed.apiKey(admin, { scopes: ['crm:read', 'crm:write'] })).key,
        lead.id,
        'A sauna.',
      );
      await t.seed.plan(admin, false);
      const answer = await search(t, key, { query: 'sauna' });
      expect(leadIdsOf(answer)).toEqual([lead.id]);
    });
  });

  // last: these spend whole minutes of the shared limit (each on agencies of their own)
  describe('the shared search limit: 30 a minute per key and per organization', () => {
    const fresh = async (name: string) => {
      const admin = await t.seed.organization({ name });
      const key = async () => (await t.seed.apiKey(admin, { name: 'search', scopes: ['crm:read'] })).key;
      return { admin, key };
    };
    const expectLimited = (res: Response) => {
      expectError(res, 429, 'RATE_LIMITED');
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      return retryAfter;
    };

    it('the 31st call in a minute on one key → 429 RATE_LIMITED with Retry-After; the key’s other routes go on', async () => {
      const agency = await fresh('Limit One Key');
      const key = await agency.key();
      for (let i = 0; i < 30; i++)
        expect((await postSearch(t, key, { query: `pool ${i}` })).status).toBe(200);
      const retryAfter = expectLimited(await postSearch(t, key, { query: 'pool' }));
      await api(t, key).get('/v1/leads').expect(200);
      t.clock.advance(retryAfter * 1000);
      expect((await postSearch(t, key, { query: 'pool' })).status).toBe(200);
    });

    it('across two keys of one organization (15 + 16) → 429 on the 31st; another organization is unaffected', async () => {
      const agency = await fresh('Limit Two Keys');
      const [first, second] = [await agency.key(), await agency.key()];
      for (let i = 0; i < 15; i++) expect((await postSearch(t, first, { query: 'pool' })).status).toBe(200);
      for (let i = 0; i < 15; i++) expect((await postSearch(t, second, { query: 'pool' })).status).toBe(200);
      expectLimited(await postSearch(t, second, { query: 'pool' }));
      expectLimited(await postSearch(t, first, { query: 'pool' }));
      const other = await fresh('Limit Other');
      expect((await postSearch(t, await other.key(), { query: 'pool' })).status).toBe(200);
    });
  });
});
