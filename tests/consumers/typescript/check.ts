// What both TypeScript consumers check, whatever their client: each one
// passes its own calls in. Run against the live server by
// tests/consumers/run.sh.
import { readFileSync } from 'node:fs';

export interface Problem {
  code: string;
  message: string;
  status: number;
}

export interface Page {
  ids: number[];
  nextCursor: string | null;
  /** The response's `Link` header, where the client exposes headers. */
  link: string | null;
}

/** One consumer's calls: each returns the typed body or the typed Problem. */
export interface Calls {
  name: string;
  page(query: { limit?: number; cursor?: string; status?: 'pending' | 'shipped'; petId?: number }): Promise<Page | Problem>;
  pageAsStranger(): Promise<Page | Problem>;
  cancel(orderId: number): Promise<'cancelled' | Problem>;
}

interface Data {
  orders: { id: number; petId: number; status: 'pending' | 'shipped' }[];
}

const PAGE = 7;

function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(`FAILED: ${what}`);
  }
  console.log(`ok: ${what}`);
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value;
}

async function walk(calls: Calls): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await calls.page({ limit: PAGE, cursor, status: 'pending', petId: 2 });
    if (isProblem(page)) {
      throw new Error(`FAILED: a page, got ${JSON.stringify(page)}`);
    }
    check(page.ids.length <= PAGE, `a page of at most ${PAGE}`);
    ids.push(...page.ids);
    if (page.nextCursor === null) {
      check(page.link === null, 'no Link on the last page');
      return ids;
    }
    const link = page.link ?? '';
    const target = new URL(link.slice(link.indexOf('<') + 1, link.indexOf('>')), 'http://server');
    check(link.endsWith('rel="next"') && target.searchParams.get('cursor') === page.nextCursor,
      "the Link header names the next page's cursor");
    cursor = page.nextCursor;
  }
}

function expectProblem(value: unknown, status: number, code: string): void {
  check(isProblem(value) && value.status === status && value.code === code,
    `${status} is a typed Problem with code ${code}`);
}

export async function run(calls: Calls): Promise<void> {
  const [v1Url, , key, dataPath] = process.argv.slice(2);
  const data = JSON.parse(readFileSync(dataPath, 'utf8')) as Data;
  const expected = data.orders.filter((o) => o.petId === 2 && o.status === 'pending').map((o) => o.id);
  const walked = await walk(calls);
  check(JSON.stringify(walked) === JSON.stringify(expected),
    `a walk with filters returns the ${expected.length} matching orders once`);

  const victim = expected[0];
  check((await calls.cancel(victim)) === 'cancelled', `order ${victim} cancelled through v2`);
  const v1 = await fetch(`${v1Url}/store/orders`, { headers: { Authorization: `Bearer ${key}` } });
  const v1Ids = ((await v1.json()) as { id: number }[]).map((o) => o.id);
  check(v1.status === 200 && !v1Ids.includes(victim), 'v1 no longer lists it');
  check(!(await walk(calls)).includes(victim), 'v2 no longer lists it');

  expectProblem(await calls.page({ limit: 0 }), 400, 'invalid_parameter');
  expectProblem(await calls.pageAsStranger(), 401, 'unauthorized');
  expectProblem(await calls.cancel(999_999), 404, 'order_not_found');
  expectProblem(await calls.cancel(victim), 404, 'order_not_found');
  const shipped = data.orders.find((o) => o.status === 'shipped');
  expectProblem(await calls.cancel(shipped?.id ?? 0), 409, 'order_already_shipped');
  console.log(`${calls.name}: every check passed`);
}
