// @hey-api/openapi-ts's settings (tests/consumers/run.sh): version 2's SDK
// with its fetch client, imports written with `.js` as Node's ES modules
// need them.
export default {
  input: '../../openapi/v2/petstore.yaml',
  output: { path: 'typescript/generated/hey-api', importFileExtension: '.js' },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
};
