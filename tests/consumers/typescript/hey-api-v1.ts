// A TypeScript team's use of version 1 through the SDK @hey-api/openapi-ts
// generates from openapi/petstore.yaml (its fetch client). Type-checked
// with `tsc --strict`, run by tests/consumers/run.sh.
import { createClient } from './generated/hey-api-v1/client/index.js';
import { cancelOrder, getPetById, listOrders } from './generated/hey-api-v1/sdk.gen.js';
import type { Error } from './generated/hey-api-v1/types.gen.js';
import { type ApiError, type Calls, run } from './check-v1.js';

const [v1Url, , key] = process.argv.slice(2);
const client = createClient({ baseUrl: v1Url, auth: key });
const stranger = createClient({ baseUrl: v1Url, auth: 'psk_0_0000' });
const noBody = (response: Response | undefined): ApiError => ({ code: 'no body', message: '', status: response?.status ?? 0 });

const calls: Calls = {
  name: '@hey-api/openapi-ts',
  async list() {
    const { data, error, response } = await listOrders({ client });
    return data !== undefined ? data.map((o) => o.id ?? 0) : (error satisfies Error | undefined) ?? noBody(response);
  },
  async listAsStranger() {
    const { data, error, response } = await listOrders({ client: stranger });
    return data !== undefined ? data.map((o) => o.id ?? 0) : (error satisfies Error | undefined) ?? noBody(response);
  },
  async cancel(orderId) {
    const { error, response } = await cancelOrder({ client, path: { orderId } });
    return response.status === 204 ? 'cancelled' : (error satisfies Error | undefined) ?? noBody(response);
  },
  async petName(petId) {
    const { data, error, response } = await getPetById({ client, path: { petId } });
    return data !== undefined ? data.name : (error satisfies Error | undefined) ?? noBody(response);
  },
};

await run(calls);
