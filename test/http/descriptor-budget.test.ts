/** The start-up warning when FOLIO_MAX_CONNECTIONS does not fit the open-files limit. */
import { describe, expect, it } from 'vitest';
import { descriptorBudgetWarning, openFilesLimit } from '../../src/http/connections/descriptor-budget.ts';

const limits = (soft: string) =>
  `Limit                     Soft Limit           Hard Limit           Units     \nMax processes             127431               127431               processes \nMax open files            ${soft}               1048576              files     \n`;

describe('descriptor budget', () => {
  it('reads the soft open-files limit, and this process has one on Linux', () => {
    expect(openFilesLimit(limits('1024'))).toBe(1024);
    expect(openFilesLimit(limits('unlimited'))).toBeUndefined();
    if (process.platform === 'linux') expect(openFilesLimit()).toBeGreaterThan(0);
  });

  it('warns when two descriptors per connection do not fit, naming what to change', () => {
    expect(descriptorBudgetWarning(1088, 20_000)).toBeUndefined();
    const warning = descriptorBudgetWarning(1088, 1024);
    expect(warning).toContain('open-files limit is 1024');
    expect(warning).toContain('lower FOLIO_MAX_CONNECTIONS to at most 361');
  });
});
