package io.binlogapplier.filter;

import io.binlogapplier.filter.SqlTokens.Token;

import java.util.List;

/** Walks a statement's tokens for {@link StatementNames}; a form it does not know ends the walk. */
class TokenCursor {
    final List<Token> tokens;
    int at;

    TokenCursor(List<Token> tokens) {
        this.tokens = tokens;
    }

    Token peek() {
        return at < tokens.size() ? tokens.get(at) : null;
    }

    Token next() {
        return at < tokens.size() ? tokens.get(at++) : null;
    }

    boolean peekWord(String w) {
        Token t = peek();
        return t != null && t.word(w);
    }

    boolean acceptWord(String w) {
        if (peekWord(w)) {
            at++;
            return true;
        }
        return false;
    }

    boolean acceptPunct(char c) {
        Token t = peek();
        if (t != null && t.punct(c)) {
            at++;
            return true;
        }
        return false;
    }

    void requireWord(String... words) {
        for (String w : words) {
            if (acceptWord(w)) {
                return;
            }
        }
        throw new NotUnderstood();
    }

    /** The statement is not of a form this class knows. */
    static final class NotUnderstood extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotUnderstood() {
            super(null, null, false, false);
        }
    }
}
