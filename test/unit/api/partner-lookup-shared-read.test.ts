/**
 * LP_FIND's read of the whole list shared with an execution that offered to help
 * (PartnerLookup.activeRecords over src/api/shares.ts): what it answers is the list just read, or
 * the last good copy marked stale.
 */
import { fnv1a } from '../../../src/api/hash';
import { SLOTS } from '../../../src/api/shares';
import { Snapshot } from '../../../src/api/snapshot';
import { partnerWorld, TTL_MS } from '../../helpers/partner-world';

test('a shared read whose helper ran short of time to write its part answers the list just read, not the old copy unmarked', () => {
  const w = partnerWorld({ total: 1000 });
  // The list as read two hours ago: 500 partners, no longer fresh.
  const old = new Snapshot(w.memo);
  old.publishHeld(
    old.hold(
      w.ids.slice(0, 500).map((id) => ({ id, fullName: 'old' })),
      'old',
    ),
  );
  w.clock.t += 2 * TTL_MS;
  // An execution waiting for the read has offered to help.
  w.memo.putMany([[w.memo.key('snap', `offer:${fnv1a('helper') % SLOTS}`), 'helper']], true);
  let helped = false;
  w.hooks.onSleep = () => {
    if (helped) return;
    helped = true;
    const helper = w.execution('helper', 12_000);
    // The service answers the helper's pages slowly: 4.5 s, and it has no time left to write its part.
    w.hooks.onList = () => {
      w.hooks.onList = undefined;
      w.clock.t += 4_500;
      return undefined;
    };
    helper.lookup(w.ids.slice(0, 40));
  };
  const out = w.execution('reader').activeRecords();
  const answeredNow = JSON.stringify(out.records.map((r) => r.id)) === JSON.stringify(w.ids);
  const markedStale = out.staleSince !== undefined;
  expect({ answeredNow, markedStale, records: out.records.length }).not.toEqual(
    expect.objectContaining({ answeredNow: false, markedStale: false }),
  );
});
