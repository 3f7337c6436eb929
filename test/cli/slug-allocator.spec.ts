import { expect } from 'chai';
import { planHealthchecks } from '../../src/cli/import-healthchecks.js';
import { SlugAllocator } from '../../src/cli/import-plan.js';

/** A set that counts how often it is asked whether it holds a slug: the allocator's probes. */
class CountingSet extends Set<string> {
  probes = 0;
  override has(value: string): boolean {
    this.probes += 1;
    return super.has(value);
  }
}

describe('SlugAllocator', () => {
  it('gives repeats of a name the next free number, skipping numbers already taken by other names', () => {
    const slugs = new SlugAllocator();
    expect(['Backup', 'backup-2', 'Backup', 'Backup', 'Backup-3'].map((name) => slugs.allocate(name))).to.deep.equal(['backup', 'backup-2', 'backup-3', 'backup-4', 'backup-3-2']);
  });

  it('probes a bounded number of candidates per name, however often the name repeats', () => {
    const taken = new CountingSet();
    const slugs = new SlugAllocator(taken);
    const allocated = Array.from({ length: 10_000 }, () => slugs.allocate('Nightly backup'));
    expect(new Set(allocated).size).to.equal(10_000);
    expect(allocated.at(-1)).to.equal('nightly-backup-10000');
    expect(taken.size, 'the allocator keeps its slugs in the set given').to.equal(10_000);
    // One probe for the base and one per repeat (plus one to find each number free): linear, not 50 million.
    expect(taken.probes).to.be.at.most(2 * 10_000);
  });

  it('plans an import of 10,000 checks of one name with distinct slugs in file order', () => {
    const checks = Array.from({ length: 10_000 }, () => ({ name: 'Backup', timeout: 86_400, grace: 3_600 }));
    const plan = planHealthchecks({ checks });
    expect(plan.drafts.map((d) => d.slug).slice(0, 3)).to.deep.equal(['backup', 'backup-2', 'backup-3']);
    expect(new Set(plan.drafts.map((d) => d.slug)).size).to.equal(10_000);
  });
});
