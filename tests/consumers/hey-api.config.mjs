// @hey-api/openapi-ts's settings (tests/consumers/run.sh): each version's
// SDK with its fetch client, imports written with `.js` as Node's ES
// modules need them.
const sdk = (spec, folder) => ({
  input: spec,
  output: { path: `typescript/generated/${folder}`, importFileExtension: '.js' },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
});

export default [sdk('../../openapi/v2/petstore.yaml', 'hey-api'), sdk('../../openapi/petstore.yaml', 'hey-api-v1')];
