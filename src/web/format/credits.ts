/** 1 credit = 1 cent (spec section 1). */
const whole = new Intl.NumberFormat('en-US');
const fraction = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const smallDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 5,
});

/** "1,000 credits", "1 credit", "0.25 credits". */
export function formatCredits(credits: number): string {
  const text = Number.isInteger(credits) ? whole.format(credits) : fraction.format(credits);
  return `${text} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** "$10.00"; prices below a cent keep their digits ("$0.0025"). */
export function formatDollars(credits: number): string {
  const value = credits / 100;
  return Number.isInteger(credits) ? dollars.format(value) : smallDollars.format(value);
}

/** "1,000 credits ($10.00)": how the console shows a balance or a price. */
export function formatCreditsAndDollars(credits: number): string {
  return `${formatCredits(credits)} (${formatDollars(credits)})`;
}
