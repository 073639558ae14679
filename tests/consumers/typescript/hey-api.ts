// A TypeScript team's use of version 2 through the SDK
// @hey-api/openapi-ts generates from openapi/v2/petstore.yaml (its fetch
// client). Type-checked with `tsc --strict`, run by
// tests/consumers/run.sh: node hey-api.js V1_URL V2_URL KEY DATA_JSON
import { createClient } from './generated/hey-api/client/index.js';
import { cancelOrder, listOrders } from './generated/hey-api/sdk.gen.js';
import type { OrderPage, Problem } from './generated/hey-api/types.gen.js';
import { type Calls, type Page, run } from './check.js';

const [, v2Url, key] = process.argv.slice(2);
const client = createClient({ baseUrl: v2Url, auth: key });
const stranger = createClient({ baseUrl: v2Url, auth: 'psk_0_0000' });

function page(data: OrderPage, response: Response): Page {
  return { ids: data.items.map((o) => o.id), nextCursor: data.nextCursor, link: response.headers.get('link') };
}

const calls: Calls = {
  name: '@hey-api/openapi-ts',
  async page(query) {
    const { data, error, response } = await listOrders({ client, query });
    return data !== undefined ? page(data, response) : (error satisfies Problem | undefined) ?? noBody(response);
  },
  async pageAsStranger() {
    const { data, error, response } = await listOrders({ client: stranger });
    return data !== undefined ? page(data, response) : (error satisfies Problem | undefined) ?? noBody(response);
  },
  async cancel(orderId) {
    const { error, response } = await cancelOrder({ client, path: { orderId } });
    return response.status === 204 ? 'cancelled' : (error satisfies Problem | undefined) ?? noBody(response);
  },
};

function noBody(response: Response | undefined): Problem {
  return { code: 'no body', message: `HTTP ${response?.status ?? 'error'}`, status: 0 };
}

await run(calls);
