// Mocha's spec output, plus the closing line CI reads: "N passed, N failed". Then a watch that ends
// the run, listing what held it, if something a test left behind keeps the process from exiting.
const Mocha = require('mocha');
const { watchExit } = require('./exit-watch.cjs');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = runner.stats;
      console.log(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      watchExit();
    });
  }
}

module.exports = SummaryReporter;
