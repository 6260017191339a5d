// How the language server process is started, defined once: client/client.ts passes this where VS
// Code launches the server, and test/support/lspClient.ts (protocol tests and `npm run bench`)
// spawns the server the same way, so what is measured is what runs.
//
// --max-semi-space-size=4 (MB): the server keeps little between re-evaluations but allocates in
// bursts, one per Hermes write or save; with V8's default young generation for a 64-bit heap (16 MB
// semi-spaces) every burst stayed resident until a scavenge. Small semi-spaces scavenge sooner; 4 MB
// rather than 1 scavenges less often within one burst: over three paired full LSP runs a save's
// re-evaluation took 5.9 ms against 6.6 (a write's 4.0 against 4.7) at the same peak RSS.
//
// --heap-growing-percent=30: V8 otherwise lets the old generation grow to up to four times what
// survived the last full collection before collecting again; on 20,000 sessions that was ~150 MB of
// heap for ~40 MB live, under a stream of Hermes writes. 1.3 times keeps the peak near what
// --optimize-for-size kept it at (126 against 122 MB over three paired full LSP runs), without that
// flag's other economies, which cost speed: the re-evaluation after a Hermes write took 6.9 ms with
// it and 4.5 without (medians of those runs; a save's was the same either way).
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=30'];

// MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (V8's GC helpers, libuv's file-system
// pool, the token-count relay) an arena of its own and rarely hands their free memory back; two
// arenas took 3–8 MB off the server's peak in paired runs. Other C libraries ignore it.
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
