export { type LayerOptions, layer, txidOf } from "./PixApiProvider.js"
export {
  chosen,
  config,
  defaultPageSize,
  defaultTimeout,
  type PixApiSettings,
  reconcileEvery
} from "./PixApiSettings.js"
export { PemFileUnreadable } from "./PixApiTransport.js"
