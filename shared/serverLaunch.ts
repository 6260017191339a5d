// How the language server process is started, defined once: client/client.ts passes this where VS
// Code launches the server, and test/support/lspClient.ts (protocol tests and `npm run bench`)
// spawns the server the same way, so what is measured is what runs.
//
// --max-semi-space-size=4 (MB): the server allocates in bursts, one per Hermes write or save; small
// semi-spaces scavenge each burst sooner than V8's default 16 MB, and 4 rather than 1 scavenges
// less often within one burst. --heap-growing-percent=30: V8 otherwise lets the old generation grow
// to four times what survived the last collection; this bounds the peak without the speed that
// --optimize-for-size costs. The paired runs behind both are in docs/BENCHMARKS.md.
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=30'];

// MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (V8's GC helpers, libuv's file-system
// pool, the token-count relay) an arena of its own and rarely hands their free memory back; two
// arenas keep the server's peak lower (docs/BENCHMARKS.md). Other C libraries ignore it.
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
