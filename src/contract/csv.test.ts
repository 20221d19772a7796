import { describe, expect, it } from 'vitest';
import { csvText } from './csv.ts';

describe('csvText', () => {
  it('quotes what needs quoting, ends lines with CRLF and leaves numbers, booleans and empties plain', () => {
    expect(
      csvText(
        ['a', 'b'],
        [
          ['x, y', 'say "hi"'],
          [1.5, true],
          [null, 'line\nbreak'],
        ],
      ),
    ).toBe('a,b\r\n"x, y","say ""hi"""\r\n1.5,true\r\n,"line\nbreak"\r\n');
  });

  it('defuses text a spreadsheet would run as a formula, but not a negative number', () => {
    expect(
      csvText(
        ['name', 'delta'],
        [
          ['=SUM(A1)', -3],
          ['@cmd', 0],
          ['+1', 2],
        ],
      ),
    ).toBe("name,delta\r\n'=SUM(A1),-3\r\n'@cmd,0\r\n'+1,2\r\n");
  });
});
