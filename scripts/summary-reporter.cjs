// Mocha's spec output, plus the closing line CI reads: "N passed, N failed". A process warning
// (Node prints it on stderr) fails the run: a run that passes prints nothing there. Then a watch
// that ends the run, listing what held it, if something a test left behind keeps the process from
// exiting.
const Mocha = require('mocha');
const { watchExit } = require('./exit-watch.cjs');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const warnings = [];
    process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));
    // Before the runner's own 'end' listener, which hands its failure count to mocha's exit code.
    runner.once('end', () => {
      const { passes, pending } = runner.stats;
      for (const warning of warnings) console.log(`  ✗ a process warning, printed on stderr: ${warning}`);
      runner.failures += warnings.length;
      const failures = runner.stats.failures + warnings.length;
      const why = warnings.length ? ` (${warnings.length} of them process warning${warnings.length === 1 ? '' : 's'})` : '';
      console.log(`${passes} passed, ${failures} failed${why}${pending ? `, ${pending} skipped` : ''}`);
      watchExit();
    });
  }
}

module.exports = SummaryReporter;
