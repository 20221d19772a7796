import { describe, expect, it } from 'vitest';
import { nonPublicReason, parseIPv4, parseIPv6 } from './ip-ranges.ts';

describe('parseIPv6', () => {
  it('expands every textual form to the same eight groups', () => {
    const loopbackV4Mapped = [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1];
    for (const text of [
      '::ffff:7f00:1',
      '::ffff:127.0.0.1',
      '::FFFF:7F00:0001',
      '0:0:0:0:0:ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:ffff:7f00:0001',
      '[::ffff:7f00:1]',
    ]) {
      expect(parseIPv6(text), text).toEqual(loopbackV4Mapped);
    }
    expect(parseIPv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('::1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0x102, 0x304]);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(parseIPv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('127.0.0.1')).toBeNull();
    expect(parseIPv6('1:::2')).toBeNull();
  });

  it('parses only dotted-decimal IPv4', () => {
    expect(parseIPv4('127.0.0.1')).toBe(0x7f000001);
    expect(parseIPv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIPv4('0177.0.0.1')).toBeNull();
    expect(parseIPv4('2130706433')).toBeNull();
  });
});

describe('nonPublicReason', () => {
  const nonPublic: [string, RegExp][] = [
    ['0.0.0.0', /this network/],
    ['0.255.255.255', /this network/],
    ['10.0.0.1', /private.*10\.0\.0\.0\/8/],
    ['100.64.0.0', /carrier-grade/],
    ['100.127.255.255', /carrier-grade/],
    ['127.0.0.1', /loopback.*127\.0\.0\.0\/8/],
    ['127.255.255.254', /loopback/],
    ['169.254.169.254', /link-local.*169\.254\.0\.0\/16/],
    ['172.16.0.0', /private.*172\.16\.0\.0\/12/],
    ['172.31.255.255', /private/],
    ['192.0.0.8', /IETF/],
    ['192.0.2.1', /documentation/],
    ['192.88.99.1', /6to4 relay/],
    ['192.168.1.1', /private/],
    ['198.18.0.1', /benchmarking/],
    ['198.19.255.255', /benchmarking/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.9', /documentation/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['255.255.255.255', /broadcast/],
    ['::', /unspecified/],
    ['::1', /loopback address \(::1\)/],
    ['0:0:0:0:0:0:0:1', /loopback address \(::1\)/],
    ['::ffff:7f00:1', /IPv4-mapped form of 127\.0\.0\.1, a loopback/],
    ['::ffff:127.0.0.1', /IPv4-mapped form of 127\.0\.0\.1/],
    ['::ffff:a9fe:a9fe', /IPv4-mapped form of 169\.254\.169\.254, a link-local/],
    ['::ffff:10.1.2.3', /private/],
    ['::127.0.0.1', /IPv4-compatible form of 127\.0\.0\.1/],
    ['::8.8.8.8', /deprecated IPv4-compatible/],
    ['64:ff9b::7f00:1', /NAT64 form of 127\.0\.0\.1/],
    ['64:ff9b::10.0.0.1', /NAT64 form of 10\.0\.0\.1/],
    ['64:ff9b:1::1', /reserved/],
    ['2002:7f00:1::1', /6to4 form of 127\.0\.0\.1/],
    ['2002:c0a8:101::', /6to4 form of 192\.168\.1\.1/],
    ['100::1', /discard-only/],
    ['100::ffff:ffff:ffff:ffff', /discard-only/],
    ['2001:db8::1', /documentation/],
    ['2001::1', /IETF/],
    ['3fff::1', /documentation/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['febf:ffff::1', /link-local/],
    ['fec0::1', /site-local/],
    ['ff02::1', /multicast/],
    ['::ffff:0:7f00:1', /reserved/],
    ['5f00::1', /reserved/],
    ['localhost', /not an IP address/],
    ['', /not an IP address/],
  ];
  it.each(nonPublic)('%s is not public', (ip, reason) => {
    expect(nonPublicReason(ip)).toMatch(reason);
  });

  const publicAddresses = [
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.0.3.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2001:200::1',
    '3ffe::1',
  ];
  it.each(publicAddresses)('%s is public', (ip) => {
    expect(nonPublicReason(ip)).toBeNull();
  });
});
