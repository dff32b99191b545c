#!/usr/bin/perl
# Writes a country database in the GeoIP2/GeoLite2-Country format (MaxMind's own writer, Debian's
# libmaxmind-db-writer-perl) that places loopback addresses in countries, for the production shape on one machine
# and its tests: a client that connects from 127.0.0.1 is in Russia, from 127.0.0.2 in Germany, from 127.0.0.3 in
# the United States; every other address is in no country (nginx then says ZZ). A real deployment points
# GEOIP_DATABASE at MaxMind's GeoLite2-Country.mmdb instead (docs/production.md).
#
#   perl deploy/geo/demo-country-db.pl OUT.mmdb
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my $out = shift or die "usage: $0 OUT.mmdb\n";
my %types = (country => 'map', iso_code => 'utf8_string', names => 'map', en => 'utf8_string');
my $tree = MaxMind::DB::Writer::Tree->new(
    ip_version            => 4,
    record_size           => 24,
    database_type         => 'GeoLite2-Country',
    languages             => ['en'],
    description           => { en => 'player-host demo: loopback addresses placed in countries' },
    map_key_type_callback => sub { $types{ $_[0] } },
    remove_reserved_networks => 0,  # loopback is what this database is about
);
my %countries = ('127.0.0.1/32' => ['RU', 'Russia'], '127.0.0.2/32' => ['DE', 'Germany'],
                 '127.0.0.3/32' => ['US', 'United States']);
for my $network (sort keys %countries) {
    my ($code, $name) = @{ $countries{$network} };
    $tree->insert_network($network, { country => { iso_code => $code, names => { en => $name } } });
}
open my $fh, '>:raw', $out or die "cannot write $out: $!\n";
$tree->write_tree($fh);
close $fh or die "cannot write $out: $!\n";
