// The simulated Hermes, as the tests and the benchmarks use it: its state.db (schema.ts), what it
// writes and how (simulatedHermes.ts, sessions.ts, rows.ts), and its write lock held from another
// process (hermesProcess.ts). The demo generator imports the modules themselves, so that
// `hermes-lens demo` bundles only what it runs.
export * from './schema';
export { readModelConfig, readStateMeta, setStateMeta, storedPromptOf, storePrompt } from './rows';
export { writeNewSession, type SessionSpec, type SessionWriteContext, type WrittenSession } from './sessions';
export * from './simulatedHermes';
export * from './hermesProcess';
