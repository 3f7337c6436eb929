import { expect } from 'chai';
import { type SlugClaimEvent, slugClaimDecider, slugClaimStream, slugify } from '../../../src/domain/monitors/slug-claim.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(slugClaimDecider);
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const slug = 'nightly-backup';
const claim = (monitor_id: string, holderGone = false) => ({ type: 'ClaimSlug' as const, project_id: 'p-1', slug, monitor_id, holderGone, now: T1 });
const release = (monitor_id: string) => ({ type: 'ReleaseSlug' as const, project_id: 'p-1', slug, monitor_id, now: T1 });
const claimed = (monitor_id: string, claimed_at = T0): SlugClaimEvent => ({ type: 'SlugClaimed', data: { project_id: 'p-1', slug, monitor_id, claimed_at } });
const released = (monitor_id: string, released_at = T0): SlugClaimEvent => ({ type: 'SlugReleased', data: { project_id: 'p-1', slug, monitor_id, released_at } });

describe('Monitor slug claim', () => {
  it('lives in a stream of its own per project and slug, so two projects may use the same slug', () => {
    expect(slugClaimStream('p-1', slug)).to.equal('monitorslug-p-1-nightly-backup');
    expect(slugClaimStream('p-2', slug)).to.not.equal(slugClaimStream('p-1', slug));
  });

  describe('claiming', () => {
    it('gives a free slug to the first monitor that claims it', () => {
      given([]).when(claim('m-1')).then([claimed('m-1', T1)]);
    });

    it('records nothing when the holder claims its own slug again (a retried create)', () => {
      given([claimed('m-1')]).when(claim('m-1')).then([]);
    });

    it('refuses a slug another monitor of the project holds', () => {
      given([claimed('m-1')]).when(claim('m-2')).thenRefuses('invalid', /slug nightly-backup is already used by another monitor in this project/);
    });

    it('hands the slug over when its holder is gone (its creation failed or it was deleted)', () => {
      given([claimed('m-1')]).when(claim('m-2', true)).then([claimed('m-2', T1)]);
    });

    it('gives a released slug to the next monitor that claims it', () => {
      given([claimed('m-1'), released('m-1')]).when(claim('m-2')).then([claimed('m-2', T1)]);
    });
  });

  describe('releasing', () => {
    it('releases the slug its holder gives up', () => {
      given([claimed('m-1')]).when(release('m-1')).then([released('m-1', T1)]);
    });

    it('records nothing when a monitor that does not hold the slug releases it', () => {
      given([claimed('m-1')]).when(release('m-2')).then([]);
      given([]).when(release('m-1')).then([]);
    });

    it('records nothing when the slug is released twice', () => {
      given([claimed('m-1'), released('m-1')]).when(release('m-1')).then([]);
    });

    it('keeps the new holder when a former holder\'s late release arrives after a hand-over', () => {
      given([claimed('m-1'), claimed('m-2'), released('m-1')]).when(claim('m-3')).thenRefuses('invalid', /already used/);
      given([claimed('m-1'), claimed('m-2'), released('m-1')]).when(release('m-2')).then([released('m-2', T1)]);
    });
  });

  describe('slugify', () => {
    it('makes a slug of lowercase letters, digits and single hyphens from a name', () => {
      expect(slugify('  Nightly Backup -- DB #2 ')).to.equal('nightly-backup-db-2');
    });

    it('keeps at most 50 characters, without a trailing hyphen, and falls back to "monitor"', () => {
      expect(slugify(`${'a'.repeat(49)} b`)).to.equal('a'.repeat(49));
      expect(slugify('!!!')).to.equal('monitor');
    });

    it('gives a name that is a slug already back as it is, and one nearly so its slug', () => {
      expect(slugify('nightly-backup-2')).to.equal('nightly-backup-2');
      expect(slugify('a'.repeat(50))).to.equal('a'.repeat(50));
      expect(slugify(`${'a'.repeat(50)}b`)).to.equal('a'.repeat(50));
      expect(slugify('nightly--backup-')).to.equal('nightly-backup');
      expect(slugify('-nightly')).to.equal('nightly');
      expect(slugify('Nightly')).to.equal('nightly');
    });
  });
});
