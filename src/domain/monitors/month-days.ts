const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Why none of `days` falls in any of `months` (February has no 30th), or null when one does. */
export function impossibleMonthDays({ days, months }: { days: number[]; months: number[] }): string | null {
  if (days.length === 0 || months.length === 0 || months.some((month) => days.some((day) => day <= LONGEST_MONTH[month - 1]!))) return null;
  const names = months.map((month) => MONTH_NAMES[month - 1]!);
  const ordinals = days.map(ordinal);
  return `${joined(names, 'and')} ${names.length === 1 ? 'has' : 'have'} no ${joined(ordinals, 'or')}`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function joined(words: string[], conjunction: string): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}
