package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PatternSearchTest {
    private static PatternSearch search(String regex) {
        return new PatternSearch(Pattern.compile(regex));
    }

    @Test
    void findsTheShortestMatchedNameWhoseOutputItMatchesToo() {
        PatternSearch search = search("pat.*");

        assertThat(search.find(name -> search.matches(name + ".clean"))).contains("pat");
    }

    @Test
    void followsThePatternPastALeadingWildcard() {
        PatternSearch search = search(".*(raw|clean)");

        assertThat(search.find(name -> search.matches(name + ".clean"))).contains("raw");
    }

    @Test
    void findsNothingWhereThereIsNothing() {
        PatternSearch search = search("[a-z]+");

        assertThat(search.find(name -> search.matches(name + ".clean"))).isEmpty();
    }

    @Test
    void aFiniteLanguageIsSearchedToTheEnd() {
        PatternSearch search = search("orders|payments|orders\\.v2\\.clean|orders\\.v2");

        assertThat(search.find(name -> search.matches(name + ".clean"))).contains("orders.v2");
    }

    @Test
    void catastrophicBacktrackingEndsTheSearchInsteadOfHangingIt() {
        // (a+)+b on a run of a's without a b takes 2^n steps; the budget of steps ends the search.
        PatternSearch search = search("(a+)+b");

        assertThat(search.find(name -> false)).isEmpty();
    }

    @Test
    void onlyLegalTopicNamesAreFound() {
        PatternSearch search = search("\\.|\\.\\.|x");

        assertThat(search.find(name -> true)).contains("x");
    }
}
