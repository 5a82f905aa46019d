// Masking of secrets for display (the API key in `config get/list`) and in server text: one implementation, in src/api.
export { maskSecret, maskSecrets } from '../../api/errors-mask.js';
