// V8 flags of the language server process, defined once: client/client.ts passes them where VS Code
// launches the server, and test/support/lspClient.ts (protocol tests and `npm run bench`) spawns
// the server with them, so what is measured is what runs.
//
// --max-semi-space-size=1 (MB): the server keeps little between re-evaluations (about 35 MB of live
// heap on 20,000 sessions) but allocates in bursts, one per Hermes write or save; with V8's default
// young generation for a 64-bit heap (16 MB semi-spaces) every burst stays resident until a
// scavenge. One-MB semi-spaces scavenge sooner; what survives is promoted as before.
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=1'];
