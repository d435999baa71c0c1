#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# c-decls.pl FILE...: list what C sources define and declare, one line each:
#
#   FILE:LINE KIND NAME [static]
#
# KIND is one of
#   struct, union, enum  a tag DEFINED here (a body follows the name; a
#                        forward declaration `struct x;` or a use is not one),
#                        at any depth (nested in a struct, local to a function)
#   typedef              a typedef name, with "alias" after it when it is
#                        `typedef struct|union|enum NAME NAME;` (the same
#                        thing under its tag's name, not a second definition)
#   struct-decl, union-decl, enum-decl
#                        a tag only declared, at file scope: `struct x;`
#   proto, func          a function declared, or defined, at file scope
#                        (objects, and macros that look like calls, are not)
#
# "static" follows a function declared or defined static.
#
# Used by scripts/check-names.sh (one name per thing, each with its layer's
# prefix) and scripts/check-kernel-doc.sh (every public function and type of
# a seam documented).  It is a lexer and a brace matcher, not a C parser:
# comments, string and character literals and preprocessor lines are blanked
# first (keeping line numbers), so `#define`d code is not seen, and both
# arms of an #if are: the same name defined twice in one file under
# #ifdef/#else is reported twice, with its two lines.  Names starting with
# "__" before a parenthesis (__attribute__, __printf, __must_check) are taken
# as attributes, never as a function's name.
use strict;
use warnings;

my $id = qr/[A-Za-z_]\w*/;

sub blank_keep_lines { my ($s) = @_; (my $n = $s) =~ s/[^\n]//g; return " $n"; }

sub strip {
	my ($src) = @_;
	# extern "C" { ... } of a header that C++ may include: no scope of its own
	$src =~ s/\bextern\s*"C"\s*\{/ /g;
	$src =~ s{(/\*.*?\*/)|(//[^\n]*)|("(?:\\.|[^"\\\n])*")|('(?:\\.|[^'\\\n])*')}
		 {defined $1 ? blank_keep_lines($1) : defined $2 ? ' ' :
		  defined $3 ? '""' : "'x'"}gse;
	# preprocessor lines, with their continuations
	$src =~ s{^([ \t]*#(?:[^\n]*\\\n)*[^\n]*)}{blank_keep_lines($1)}gme;
	return $src;
}

# [text, line] for every token
sub tokens {
	my ($src) = @_;
	my @t;
	my $line = 1;
	while ($src =~ /\G(?:(\n)|[ \t\r\f\x0b\\]+|($id)|(\d[\w.]*)|(""|'x')|(->|\.\.\.|[^\s]))/gc) {
		if (defined $1) { $line++; next; }
		my $tok = defined $2 ? $2 : defined $3 ? $3 : defined $4 ? $4 : $5;
		next unless defined $tok;
		push @t, [$tok, $line];
	}
	return @t;
}

# index just past the group opened at $i ( `(`, `[` or `{` )
sub skip_group {
	my ($t, $i) = @_;
	my %close = ('(' => ')', '[' => ']', '{' => '}');
	my $open = $t->[$i][0];
	my $depth = 0;
	for (my $j = $i; $j < @$t; $j++) {
		my $x = $t->[$j][0];
		$depth++ if $x eq $open;
		$depth-- if $x eq $close{$open};
		return $j + 1 if $depth == 0;
	}
	return scalar @$t;
}

sub is_attr { my ($n) = @_; return $n =~ /^__/ || $n eq 'asm'; }

# the tag defined by the `{` at $i, if the tokens before it are
# struct|union|enum [attributes] NAME [attributes]
sub tag_before {
	my ($t, $i) = @_;
	my $j = $i - 1;
	my $name;
	while ($j >= 0) {
		my $x = $t->[$j][0];
		if ($x eq ')') {	# an attribute's arguments: back over them
			my $d = 0;
			for (; $j >= 0; $j--) {
				$d++ if $t->[$j][0] eq ')';
				$d-- if $t->[$j][0] eq '(';
				last if $d == 0;
			}
			$j--;
			next;
		}
		if ($x =~ /^(struct|union|enum)$/) {
			return defined $name ? [$x, $name] : undef;
		}
		return undef unless $x =~ /^$id$/;
		if (is_attr($x)) { $j--; next; }
		return undef if defined $name;	# two plain words: not a tag
		$name = $x;
		$j--;
	}
	return undef;
}

# the name a typedef (tokens from `typedef` up to its `;`) defines
sub typedef_names {
	my (@s) = @_;
	my @flat;
	# drop bodies and attributes' arguments, keep the rest
	for (my $i = 0; $i < @s; $i++) {
		my $x = $s[$i][0];
		if ($x eq '{') {
			my $d = 0;
			for (; $i < @s; $i++) {
				$d++ if $s[$i][0] eq '{';
				$d-- if $s[$i][0] eq '}';
				last if $d == 0;
			}
			push @flat, ['{}', $s[$i] ? $s[$i][1] : 0];
			next;
		}
		if ($x =~ /^$id$/ && is_attr($x) && $i + 1 < @s && $s[$i + 1][0] eq '(') {
			my $d = 0;
			for ($i++; $i < @s; $i++) {
				$d++ if $s[$i][0] eq '(';
				$d-- if $s[$i][0] eq ')';
				last if $d == 0;
			}
			next;
		}
		next if $x =~ /^$id$/ && is_attr($x);
		push @flat, $s[$i];
	}
	shift @flat;	# typedef
	# declarators separated by commas outside parentheses
	my @decl = ([]);
	my $pd = 0;
	my @base;
	my $seen_comma = 0;
	for my $tk (@flat) {
		$pd++ if $tk->[0] eq '(' || $tk->[0] eq '[';
		$pd-- if $tk->[0] eq ')' || $tk->[0] eq ']';
		if ($tk->[0] eq ',' && $pd == 0) { push @decl, []; next; }
		push @{$decl[-1]}, $tk;
	}
	my @out;
	for my $d (@decl) {
		my @d = @$d;
		next unless @d;
		my $text = join ' ', map { $_->[0] } @d;
		# function pointer or array pointer: ( * NAME ) ...
		if ($text =~ /\(\s*(?:\*\s*)+(?:const\s+)?($id)\s*\)/) {
			my $n = $1;
			my ($tk) = grep { $_->[0] eq $n } @d;
			push @out, [$n, $tk->[1], ''];
			next;
		}
		# drop array sizes and a function type's parameters
		while (@d && ($d[-1][0] eq ']' || $d[-1][0] eq ')')) {
			my $close = $d[-1][0];
			my $open = $close eq ']' ? '[' : '(';
			my $dd = 0;
			while (@d) {
				my $x = pop(@d)->[0];
				$dd++ if $x eq $close;
				$dd-- if $x eq $open;
				last if $dd == 0;
			}
		}
		my ($last) = grep { $_->[0] =~ /^$id$/ } reverse @d;
		next unless $last;
		my $alias = '';
		if (@d == 3 && $d[0][0] =~ /^(struct|union|enum)$/ && $d[1][0] eq $last->[0]) {
			$alias = ' alias';
		}
		push @out, [$last->[0], $last->[1], $alias];
	}
	return @out;
}

# the function a file-scope statement declares or defines, if it is one
sub function_of {
	my (@s) = @_;
	return undef if grep { $_->[0] eq '=' || $_->[0] eq 'typedef' } @s;
	my @before;	# the words before the name, attributes left out
	for (my $i = 0; $i < @s; $i++) {
		my $x = $s[$i][0];
		if ($x =~ /^$id$/ && is_attr($x)) {	# an attribute and its arguments
			$i = skip_group(\@s, $i + 1) - 1 if $i + 1 < @s && $s[$i + 1][0] eq '(';
			next;
		}
		if ($x eq '(' && $i > 0 && $s[$i - 1][0] =~ /^$id$/ && @before > 1) {
			my $n = pop @before;
			# `int (*fn)(void)`: a pointer declarator, not a function
			return undef if $i + 1 < @s && $s[$i + 1][0] eq '*';
			return undef if $n =~ /^(struct|union|enum|sizeof|return|if|while|for|switch)$/;
			my $static = (grep { $_->[0] eq 'static' } @s) ? ' static' : '';
			return [$n, $s[$i - 1][1], $static];
		}
		# `FOO(x);` with no type before it is a macro, not a function
		return undef if $x eq '(';
		push @before, $x;
	}
	return undef;
}

for my $file (@ARGV) {
	open(my $fh, '<', $file) or die "c-decls.pl: $file: $!\n";
	local $/;
	my $src = <$fh>;
	close $fh;
	my @t = tokens(strip($src));

	# tags: every `struct|union|enum NAME {`, at any depth
	for my $i (0 .. $#t) {
		next unless $t[$i][0] eq '{';
		my $tag = tag_before(\@t, $i);
		next unless $tag;
		my ($kind, $name) = @$tag;
		my ($tk) = grep { $_->[0] eq $name } reverse @t[($i > 8 ? $i - 8 : 0) .. $i];
		print "$file:$tk->[1] $kind $name\n";
	}

	# typedefs, at any depth: from `typedef` to the `;` at its own depth
	for my $i (0 .. $#t) {
		next unless $t[$i][0] eq 'typedef';
		my $j = $i;
		my $d = 0;
		for (; $j < @t; $j++) {
			$d++ if $t[$j][0] eq '{';
			$d-- if $t[$j][0] eq '}';
			last if $d == 0 && $t[$j][0] eq ';';
			last if $d < 0;
		}
		for my $n (typedef_names(@t[$i .. $j - 1])) {
			print "$file:$n->[1] typedef $n->[0]$n->[2]\n";
		}
	}

	# functions at file scope
	my @stmt;
	my $i = 0;
	while ($i < @t) {
		my $x = $t[$i][0];
		if ($x eq ';') {
			my $f = function_of(@stmt);
			print "$file:$f->[1] proto $f->[0]$f->[2]\n" if $f;
			if (@stmt == 2 && $stmt[0][0] =~ /^(struct|union|enum)$/ &&
			    $stmt[1][0] =~ /^$id$/) {
				print "$file:$stmt[1][1] $stmt[0][0]-decl $stmt[1][0]\n";
			}
			@stmt = ();
			$i++;
			next;
		}
		if ($x eq '}') {	# a stray close (an #if arm): start afresh
			@stmt = ();
			$i++;
			next;
		}
		if ($x eq '{') {
			my $end = skip_group(\@t, $i);
			my $tag = tag_before(\@t, $i);
			my $f = (!$tag && !grep { $_->[0] eq '=' } @stmt) ? function_of(@stmt) : undef;
			if ($f && !grep { $_->[0] eq 'typedef' } @stmt) {
				print "$file:$f->[1] func $f->[0]$f->[2]\n";
				@stmt = ();
			} else {
				push @stmt, ['{}', $t[$i][1]];
			}
			$i = $end;
			next;
		}
		push @stmt, $t[$i];
		$i++;
	}
}
