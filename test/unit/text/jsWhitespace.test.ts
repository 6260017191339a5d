// The description-cut alignment tests characters with isJsWhitespace instead of /\s/: the same set.
import * as assert from 'node:assert/strict';
import { isJsWhitespace } from '../../../server/hermes/text/jsWhitespace';

describe('text/jsWhitespace: JavaScript\'s \\s without a regex', () => {
  it('agrees with /\\s/ on every UTF-16 unit', () => {
    for (let unit = 0; unit <= 0xffff; unit++) {
      assert.equal(isJsWhitespace(unit), /\s/.test(String.fromCharCode(unit)), `U+${unit.toString(16)}`);
    }
  });
});
