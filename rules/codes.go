package rules

// Code says exactly what a rules error is, for the words a user reads: the
// chat adapter words each code from its catalogue (message "Rules" + code),
// with the error's Args as named placeholders. The set is closed: adding a
// code means adding its message to every catalogue (a test checks).
type Code string

// Codes of notation: squares and moves that cannot be read.
const (
	CodeNotSquare        Code = "NotSquare"        // Text is not a square
	CodeOffBoard         Code = "OffBoard"         // Text is not on the Size x Size board
	CodeNotPlayingSquare Code = "NotPlayingSquare" // Square is a light square
	CodeNoSquare         Code = "NoSquare"         // a square is missing
	CodeNotMove          Code = "NotMove"          // Text is not a move; Examples shows how to write one
	CodeNotHalmaMove     Code = "NotHalmaMove"     // Text is not a Halma move; Examples
)

// Codes of moves that can be read but not played.
const (
	CodeNotLegal        Code = "NotLegal"        // Move is not legal
	CodeNotLegalFrom    Code = "NotLegalFrom"    // Move is not legal; the piece on Square can play Moves
	CodeNoPiece         Code = "NoPiece"         // no piece on Square
	CodeNotYourPiece    Code = "NotYourPiece"    // the piece on Square belongs to another player
	CodeNoLegalMove     Code = "NoLegalMove"     // the side to move has no legal move
	CodePieceCannotMove Code = "PieceCannotMove" // the piece on Square cannot move now
	CodeStopsTooEarly   Code = "StopsTooEarly"   // Move stops before the series ends: Moves go on
	CodeMostPieces      Code = "MostPieces"      // Move captures fewer pieces than Moves
	CodeMostKings       Code = "MostKings"       // Move captures fewer kings than Moves
	CodeMustCapture     Code = "MustCapture"     // capturing is obligatory: Squares can capture
	CodeMustConsume     Code = "MustConsume"     // after Move the double ultra king must go on: Moves
	CodeAmbiguous       Code = "Ambiguous"       // Move names several moves: Moves
	CodeNoPass          Code = "NoPass"          // passing only when there is no move
	CodeSameSquare      Code = "SameSquare"      // a move must end elsewhere than it starts
	CodeCannotReach     Code = "CannotReach"     // Square cannot reach To; it can reach Squares
	CodeNotJump         Code = "NotJump"         // From to To in a series is a step, not a jump
	CodeJumpOverEmpty   Code = "JumpOverEmpty"   // From to To jumps over the empty square Over
	CodeLandsOccupied   Code = "LandsOccupied"   // From to To lands on an occupied square
	CodeLandsTwice      Code = "LandsTwice"      // the series lands on Square twice
	CodeLeavesCamp      Code = "LeavesCamp"      // From to To leaves the target camp
	CodeNoHuff          Code = "NoHuff"          // no huff on Square now
	CodeGameOver        Code = "GameOver"        // the game is over
)

// Codes of games, options and setup.
const (
	CodeUnknownGame     Code = "UnknownGame"     // Game is not a game; Games lists them
	CodeNoOption        Code = "NoOption"        // Game has no option Key; Keys lists them
	CodeBadValue        Code = "BadValue"        // Key=Value is not allowed; Choices lists the values
	CodeBadLeaveHome    Code = "BadLeaveHome"    // leavehome=Value: a number of moves, off or auto
	CodeFourNeedSixteen Code = "FourNeedSixteen" // Halma with 4 players needs size=16
	CodeLeaveHomeTwo    Code = "LeaveHomeTwo"    // the leave-home rule is for two players only
	CodeBadLevel        Code = "BadLevel"        // computer level Level is not within Min..Max
	CodeNoComputer      Code = "NoComputer"      // the computer does not play Game
	CodeNotStarted      Code = "NotStarted"      // the game waits for formations
	CodeStarted         Code = "Started"         // the game has started already
	CodeFormationChosen Code = "FormationChosen" // this side has chosen its formation already
	CodeNoSeat          Code = "NoSeat"          // no seat Seat
	CodeFormation       Code = "Formation"       // a formation is 12 squares like Example, or "default"
	CodeFormationCount  Code = "FormationCount"  // a formation has 12 squares, not Given
	CodeFormationTwice  Code = "FormationTwice"  // Square is given twice
	CodeFormationRanks  Code = "FormationRanks"  // Square is not on the side's first three ranks (Ranks)
	CodeCannotLeave     Code = "CannotLeave"     // two players: leaving is resigning
	CodeNoPlayer        Code = "NoPlayer"        // there is no Player N
	CodeAlreadyLeft     Code = "AlreadyLeft"     // Player N has left already
)

// Codes lists every code, for the catalogue tests.
func Codes() []Code {
	return []Code{CodeNotSquare, CodeOffBoard, CodeNotPlayingSquare, CodeNoSquare, CodeNotMove, CodeNotHalmaMove,
		CodeNotLegal, CodeNotLegalFrom, CodeNoPiece, CodeNotYourPiece, CodeNoLegalMove, CodePieceCannotMove,
		CodeStopsTooEarly, CodeMostPieces, CodeMostKings, CodeMustCapture, CodeMustConsume, CodeAmbiguous,
		CodeNoPass, CodeSameSquare, CodeCannotReach,
		CodeNotJump, CodeJumpOverEmpty, CodeLandsOccupied, CodeLandsTwice, CodeLeavesCamp, CodeNoHuff, CodeGameOver,
		CodeUnknownGame, CodeNoOption, CodeBadValue, CodeBadLeaveHome, CodeFourNeedSixteen, CodeLeaveHomeTwo,
		CodeBadLevel, CodeNoComputer, CodeNotStarted, CodeStarted, CodeFormationChosen, CodeNoSeat,
		CodeFormation, CodeFormationCount, CodeFormationTwice, CodeFormationRanks,
		CodeCannotLeave, CodeNoPlayer, CodeAlreadyLeft}
}
