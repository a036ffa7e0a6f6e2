export { type LayerOptions, layer, txidOf } from "./PixApiProvider.js"
export { config, defaultPageSize, defaultTimeout, type PixApiSettings } from "./PixApiSettings.js"
export { PemFileUnreadable } from "./PixApiTransport.js"
