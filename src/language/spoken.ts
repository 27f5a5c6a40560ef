/**
 * Numbers as hark says them back. The model writes digits ("3 cases of milk", which is what the
 * records keep), but a question read aloud should sound like the person said it: "Add three cases
 * of milk to the order list?". espeak-ng reads digits too; words keep the text tests and logs
 * show identical to what is heard. On the language floor: the list actions' replies (src/command)
 * and the intent pass's proposals (src/intent) both say numbers this way.
 */
const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0..9999 in words ("forty two", "one hundred and five"); other numbers stay digits. */
export function numberWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 9999) return String(n);
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? ` ${ONES[n % 10]}` : '');
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred` + (n % 100 ? ` and ${numberWords(n % 100)}` : '');
  return `${numberWords(Math.floor(n / 1000))} thousand` + (n % 1000 ? `${n % 1000 < 100 ? ' and' : ''} ${numberWords(n % 1000)}` : '');
}

/** Whole numbers standing alone become words; decimals ("1.5") and codes ("A3") stay as written. */
export function spokenNumbers(text: string): string {
  return text.replace(/(?<![\w.])\d{1,4}(?![\w.])/g, (d) => numberWords(Number(d)));
}

/** "3 cases of milk" / 3, "cases", "milk" → "three cases of milk"; no quantity → the item alone. */
export function sayQuantity(item: string, quantity?: number, unit?: string): string {
  if (quantity === undefined) return item;
  const q = Number.isInteger(quantity) ? numberWords(quantity) : String(quantity);
  return unit ? `${q} ${unit} of ${item}` : `${q} ${item}`;
}
