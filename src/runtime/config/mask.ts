// How `config get/list` shows a secret (the API key): the one implementation, in src/api/errors-mask.ts.
export { maskSecret } from '../../api/errors-mask.js';
