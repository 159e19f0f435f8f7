'use strict';
// The floor to compare the API against: node:http + pg, no framework, no auth, running the very
// statements the API runs for GET /v1/leads (imported from the built lead-list.sql module).
// Env: DATABASE_URL, ORGANIZATION_ID, PORT.
const http = require('node:http');
const path = require('node:path');
const { Pool } = require('pg');
const sql = require(path.resolve(__dirname, '../dist/libs/crm/src/application/lead-list.sql.js'));

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const organizationId = process.env.ORGANIZATION_ID;

const numbered = (statement) => {
  let n = 0;
  return { text: statement.sql.replace(/\?/g, () => `$${++n}`), values: statement.params };
};

async function listLeads(url) {
  const page = Number(url.searchParams.get('page') ?? 1);
  const limit = Number(url.searchParams.get('limit') ?? 25);
  const search = url.searchParams.get('search') ?? undefined;
  const where = sql.leadWhere({ organizationId, memberId: null }, { search });
  const [rows, count] = await Promise.all([
    pool.query(numbered(sql.leadPageStatement(where, page, limit))),
    pool.query(numbered(sql.leadTotalStatement({ organizationId, memberId: null }, { search }))),
  ]);
  const total = Number(count.rows[0].total);
  return {
    data: rows.rows.map((row) => ({
      id: Number(row.id),
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phoneNumber: row.phone_number,
      crmStatus: row.crm_status,
      assigneeIds: row.assignee_ids,
      pendingTasks: Number(row.pending_tasks),
      tags: row.tags.map((tag) => ({ ...tag, leadCount: Number(tag.leadCount) })),
    })),
    hasMore: page * limit < total,
    page,
    limit,
    total,
  };
}

http
  .createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname !== '/leads') {
      res.writeHead(404).end();
      return;
    }
    listLeads(url).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      (err) => {
        console.error(err);
        res.writeHead(500).end();
      },
    );
  })
  .listen(Number(process.env.PORT ?? 3901), '127.0.0.1');
