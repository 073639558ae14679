// What both TypeScript consumers of version 1 check, whatever their
// client: each passes its own calls in. Run against the live server by
// tests/consumers/run.sh: node <consumer>-v1.js V1_URL V2_URL KEY DATA_JSON
import { readFileSync } from 'node:fs';

/** Version 1's error object (named `Error` in its spec). */
export interface ApiError {
  code: string;
  message: string;
  status: number;
}

/** One consumer's calls: each returns the typed body or the typed error. */
export interface Calls {
  name: string;
  list(): Promise<number[] | ApiError>;
  listAsStranger(): Promise<number[] | ApiError>;
  cancel(orderId: number): Promise<'cancelled' | ApiError>;
  petName(petId: number): Promise<string | ApiError>;
}

interface Data {
  pets: { id: number; name: string }[];
  orders: { id: number; status: 'pending' | 'shipped' }[];
}

function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(`FAILED: ${what}`);
  }
  console.log(`ok: ${what}`);
}

function isError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'code' in value;
}

function expectError(value: unknown, status: number, code: string): void {
  check(isError(value) && value.status === status && value.code === code,
    `${status} is a typed Error with code ${code}`);
}

export async function run(calls: Calls): Promise<void> {
  const [, v2Url, key, dataPath] = process.argv.slice(2);
  const data = JSON.parse(readFileSync(dataPath, 'utf8')) as Data;
  const all = await calls.list();
  check(JSON.stringify(all) === JSON.stringify(data.orders.map((o) => o.id)),
    `the list returns all ${data.orders.length} orders by ascending id`);

  const victim = data.orders.find((o) => o.status === 'pending')?.id ?? 0;
  check((await calls.cancel(victim)) === 'cancelled', `order ${victim} cancelled through v1`);
  const after = await calls.list();
  check(Array.isArray(after) && !after.includes(victim), 'v1 no longer lists it');
  const v2 = await fetch(`${v2Url}/store/orders?limit=1000`, { headers: { Authorization: `Bearer ${key}` } });
  const v2Ids = ((await v2.json()) as { items: { id: number }[] }).items.map((o) => o.id);
  check(v2.status === 200 && !v2Ids.includes(victim), 'v2 no longer lists it');

  const pet = data.pets[0];
  check((await calls.petName(pet.id)) === pet.name, 'getPetById (deprecated) returns the pet');
  expectError(await calls.petName(999_999), 404, 'pet_not_found');
  expectError(await calls.listAsStranger(), 401, 'unauthorized');
  expectError(await calls.cancel(999_999), 404, 'order_not_found');
  expectError(await calls.cancel(victim), 404, 'order_not_found');
  const shipped = data.orders.find((o) => o.status === 'shipped');
  expectError(await calls.cancel(shipped?.id ?? 0), 409, 'order_already_shipped');
  console.log(`${calls.name} (v1): every check passed`);
}
