// The domain cost layer: prices, cache lifetimes, token counts and the cost of a prompt refresh.
// No LSP or VS Code here; the server, the CLI and the extension all call these.
export * from './prices';
export * from './ttl';
export * from './tokens';
export * from './refreshCost';
